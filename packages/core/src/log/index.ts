export {
  type ConsoleLoggerOptions,
  createConsoleLogger,
  getDefaultLogger,
  isLevelEnabled,
  type Logger,
  type LogLevel,
  resolveLogLevel,
  setDefaultLogger,
  silentLogger,
  withRedaction,
} from "./logger.js";
export { redactSecrets, registerSecret } from "./redact.js";
