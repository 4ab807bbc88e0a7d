import type { Logger, LogLevel } from "@framework/core";

/** One captured log line. */
export interface CapturedLine {
  level: Exclude<LogLevel, "silent">;
  message: string;
}

/** A logger that keeps every line for assertions. */
export interface CapturingLogger extends Logger {
  /** Every line in order. */
  readonly entries: CapturedLine[];
  /** The messages of every line, in order, any level. */
  readonly lines: string[];
  /** The messages logged at `info`, in order. */
  readonly infos: string[];
  /** Forgets everything captured so far. */
  clear(): void;
}

/**
 * Creates a logger that records what it is given. Inject it where a `logger` option exists
 * (Agent, AgentNode, CrewAgent, OpenAIChatModel) or with `setDefaultLogger`.
 */
export function createCapturingLogger(): CapturingLogger {
  const entries: CapturedLine[] = [];
  const at = (level: CapturedLine["level"]) => (message: string) => {
    entries.push({ level, message });
  };
  return {
    entries,
    get lines() {
      return entries.map((entry) => entry.message);
    },
    get infos() {
      return entries.filter((entry) => entry.level === "info").map((entry) => entry.message);
    },
    clear: () => {
      entries.length = 0;
    },
    debug: at("debug"),
    info: at("info"),
    warn: at("warn"),
    error: at("error"),
  };
}
