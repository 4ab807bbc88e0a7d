/**
 * Plumbing of `@framework/core`, shared with the other `@framework` packages: the registry
 * file, its lock, the tool-module loader, the stream channel, retry and tool-output helpers.
 *
 * Unstable: anything here may change or go away in any release, minor or patch. Build on the
 * root export (`@framework/core`) instead; if you need something from here, open an issue.
 *
 * @packageDocumentation
 */
export { EventChannel } from "../agent/event-channel.js";
export { eventStream } from "../agent/event-stream.js";
export { warnDeprecated } from "../log/deprecation-warning.js";
export { addUsage, emptyUsage } from "../model/chat-model.js";
export {
  abortableDelay,
  backoffDelayMs,
  parseRetryAfter,
  retryWithBackoff,
} from "../model/retry.js";
export { writeFileAtomically } from "../registry/atomic-write.js";
export { type FileLockOptions, withFileLock } from "../registry/file-lock.js";
export { isLiveToolSource, liveToolSourceMarker } from "../registry/live-tool-source.js";
export {
  type LoadedToolModule,
  loadToolModule,
  resolveToolModule,
} from "../registry/module-loader.js";
export { RegistryFile, type ToolRecords } from "../registry/registry-file.js";
export { parseJsonToolCalls } from "../tool/json-tool-call-parser.js";
export { parseToolArguments } from "../tool/primary-function.js";
export { normalizeToolArguments } from "../tool/tool-arguments.js";
export type { PendingToolCall } from "../tool/tool-call.js";
export { capText, renderToolOutput } from "../tool/tool-output.js";
export {
  createToolRecord,
  jsonSchemaTypeName,
  RUNTIME_MODULE_PATH,
  toolInputJsonSchema,
  toolParametersJsonSchema,
} from "../tool/tool-record.js";
