export {
  type AppToolSettings,
  appToolSettings,
} from "./agent/app-tool-settings.js";
export {
  checkpointDbOptionHelp,
  checkpointDbPath,
  checkpointDbVariable,
  defaultCheckpointDb,
  openAppCheckpointer,
} from "./checkpoint/app-checkpointer.js";
export { appVersion, examplesHelp } from "./cli/cli-help.js";
export { checkModelReachable, validateAppConfig } from "./config/app-config.js";
export {
  type OfflineServices,
  offlineNotice,
  offlineOptionHelp,
  sampleDataHeadline,
} from "./offline/offline-mode.js";
export { Progress, type ProgressOptions, type ProgressStream } from "./progress/progress.js";
export { type AppRun, type RunAppOptions, runApp, verboseOptionHelp } from "./run/run-app.js";
