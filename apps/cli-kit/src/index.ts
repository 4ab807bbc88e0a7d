export {
  type AppToolSettings,
  appToolSettings,
} from "./agent/app-tool-settings.js";
export {
  checkpointDbPath,
  checkpointDbVariable,
  defaultCheckpointDb,
  openAppCheckpointer,
} from "./checkpoint/app-checkpointer.js";
export {
  type AppThread,
  type AppThreadOptions,
  forgetAppThread,
  type RunThreadAppOptions,
  runThreadApp,
  storedThreadId,
  threadNeeded,
  withAppThread,
} from "./checkpoint/app-thread.js";
export {
  type ConversationThread,
  invokeOnThread,
  type ThreadAnswer,
  type ThreadInvokeOptions,
} from "./checkpoint/thread-conversation.js";
export { type AppOptions, appOptions, appOptionsHelp } from "./cli/app-options.js";
export { appVersion, examplesHelp } from "./cli/cli-help.js";
export { checkModelReachable, validateAppConfig } from "./config/app-config.js";
export { percent } from "./format/percent.js";
export { unstructuredNote } from "./format/unstructured-note.js";
export {
  type OfflineServices,
  offlineNotice,
  sampleDataHeadline,
} from "./offline/offline-mode.js";
export { Progress, type ProgressOptions, type ProgressStream } from "./progress/progress.js";
export { type AskYesNoOptions, askYesNo } from "./prompt/ask-yes-no.js";
export {
  type AppCommand,
  type AppRun,
  type RunAppOptions,
  runApp,
  runCommand,
} from "./run/run-app.js";
