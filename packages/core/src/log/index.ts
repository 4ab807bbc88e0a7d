export {
  type ConsoleLoggerOptions,
  createConsoleLogger,
  getDefaultLogger,
  isLevelEnabled,
  type Logger,
  type LogLevel,
  logLevels,
  resolveLogLevel,
  setDefaultLogger,
  silentLogger,
  withRedaction,
} from "./logger.js";
export {
  type RegisterSecretOptions,
  redactSecrets,
  redactUrlCredentials,
  registerSecret,
} from "./redact.js";
export { DEFAULT_MAX_LOG_VALUE_BYTES, sanitizeLogMessage } from "./sanitize-log-message.js";
