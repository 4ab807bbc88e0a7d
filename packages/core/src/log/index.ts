export {
  type ConsoleLoggerOptions,
  createConsoleLogger,
  getDefaultLogger,
  type Logger,
  type LogLevel,
  setDefaultLogger,
  silentLogger,
  withRedaction,
} from "./logger.js";
export { redactSecrets, registerSecret } from "./redact.js";
