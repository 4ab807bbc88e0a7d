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

const observers = new Set<(line: CapturedLine) => void>();

/**
 * Calls `observer` with every line any capturing logger records from now on, until the
 * returned function is called. The secret guard uses it to check captured lines as they come,
 * so a test that clears its logger cannot hide a leaked key.
 */
export function observeCapturedLines(observer: (line: CapturedLine) => void): () => void {
  observers.add(observer);
  return () => {
    observers.delete(observer);
  };
}

/**
 * Creates a logger that records what it is given. Inject it where a `logger` option exists
 * (Agent, AgentNode, CrewAgent, OpenAIChatModel) or with `setDefaultLogger`.
 */
export function createCapturingLogger(): CapturingLogger {
  const entries: CapturedLine[] = [];
  const at = (level: CapturedLine["level"]) => (message: string) => {
    const line = { level, message };
    entries.push(line);
    for (const observer of observers) observer(line);
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
