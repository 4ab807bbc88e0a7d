export { AbortedError } from "./aborted-error.js";
export { AuthenticationError, type AuthenticationFailure } from "./authentication-error.js";
export { ConfigurationError } from "./configuration-error.js";
export { FrameworkError, type FrameworkErrorOptions } from "./framework-error.js";
export {
  ModelCallError,
  type ModelCallErrorOptions,
  type ModelCallFailure,
} from "./model-call-error.js";
export { ModelResponseError } from "./model-response-error.js";
export { ModelTimeoutError } from "./model-timeout-error.js";
export { RegistryFileError, type RegistryFileProblem } from "./registry-file-error.js";
export { TooManyToolCallsError } from "./too-many-tool-calls-error.js";
export { type ToolArgumentIssue, ToolArgumentsError } from "./tool-arguments-error.js";
export { ToolCallDeclinedError } from "./tool-call-declined-error.js";
export { ToolCallRefusedError } from "./tool-call-refused-error.js";
export { ToolExecutionError } from "./tool-execution-error.js";
export { ToolModuleError } from "./tool-module-error.js";
export { ToolNotFoundError } from "./tool-not-found-error.js";
export { ToolTimeoutError } from "./tool-timeout-error.js";
