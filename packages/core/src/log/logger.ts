import { redactSecrets } from "./redact.js";
import { sanitizeLogMessage } from "./sanitize-log-message.js";

/** What every framework logger writes for `message`: redacted, one line, capped. */
function logRecord(message: string): string {
  return sanitizeLogMessage(redactSecrets(message));
}

/**
 * The logging surface the framework writes to. Any pino-compatible logger fits, as does
 * `console`. Messages are plain strings.
 */
export interface Logger {
  debug(message: string): void;
  info(message: string): void;
  warn(message: string): void;
  error(message: string): void;
}

/** Every log level, lowest first: what `FRAMEWORK_LOG_LEVEL` may hold (in any case). */
export const logLevels = ["debug", "info", "warn", "error", "silent"] as const;

/** Severity levels, lowest first. */
export type LogLevel = (typeof logLevels)[number];

const levelRank: Record<LogLevel, number> = {
  debug: 10,
  info: 20,
  warn: 30,
  error: 40,
  silent: 99,
};

/** Options of {@link createConsoleLogger}. */
export interface ConsoleLoggerOptions {
  /** Lowest level written. Defaults to `FRAMEWORK_LOG_LEVEL`, else `"warn"`. */
  level?: LogLevel;
  /** Where lines go. Defaults to standard error, keeping standard output for answers. */
  write?: (line: string) => void;
}

function isLogLevel(value: string | undefined): value is LogLevel {
  return value !== undefined && value in levelRank;
}

/**
 * The level in force: `level` when given, else `FRAMEWORK_LOG_LEVEL` (read now), else
 * `"warn"`: logs are for operators, and programs follow a run through agent events instead.
 */
export function resolveLogLevel(level?: LogLevel): LogLevel {
  if (level) return level;
  const fromEnv = process.env.FRAMEWORK_LOG_LEVEL?.toLowerCase();
  return isLogLevel(fromEnv) ? fromEnv : "warn";
}

/** True when a line at `level` is written under `threshold`. */
export function isLevelEnabled(level: LogLevel, threshold: LogLevel): boolean {
  return levelRank[level] >= levelRank[threshold];
}

/** A logger that writes `LEVEL message` lines, secrets redacted, one line each (2 KB at most). */
export function createConsoleLogger(options: ConsoleLoggerOptions = {}): Logger {
  const write = options.write ?? ((line: string) => process.stderr.write(`${line}\n`));
  const at =
    (level: Exclude<LogLevel, "silent">) =>
    (message: string): void => {
      if (!isLevelEnabled(level, resolveLogLevel(options.level))) return;
      write(`${level.toUpperCase()} ${logRecord(message)}`);
    };
  return { debug: at("debug"), info: at("info"), warn: at("warn"), error: at("error") };
}

/** A logger that drops everything. */
export const silentLogger: Logger = Object.freeze({
  debug() {},
  info() {},
  warn() {},
  error() {},
});

/**
 * Wraps a user-supplied logger so that no secret reaches it, whatever the message holds, and
 * each message arrives as one line of at most 2 KB (control characters escaped, the rest cut
 * with `… (N more bytes)`). Wrapping twice is harmless.
 */
export function withRedaction(logger: Logger): Logger {
  if (redacting.has(logger) || logger === silentLogger) return logger;
  const wrapped: Logger = {
    debug: (m) => logger.debug(logRecord(m)),
    info: (m) => logger.info(logRecord(m)),
    warn: (m) => logger.warn(logRecord(m)),
    error: (m) => logger.error(logRecord(m)),
  };
  redacting.add(wrapped);
  return wrapped;
}

const redacting = new WeakSet<Logger>();

let defaultLogger: Logger = createConsoleLogger();
redacting.add(defaultLogger);

/**
 * The process-wide logger used where none was injected: by tools reporting failures (the
 * spec's "prints") and by objects constructed without a `logger` option.
 */
export function getDefaultLogger(): Logger {
  return defaultLogger;
}

/** Replaces the process-wide logger; returns the previous one so a test can restore it. */
export function setDefaultLogger(logger: Logger): Logger {
  const previous = defaultLogger;
  defaultLogger = withRedaction(logger);
  return previous;
}
