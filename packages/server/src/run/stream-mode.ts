/**
 * The stream modes a run accepts, as LangGraph's clients ask for them. `values`, `updates`,
 * `messages-tuple`, `custom` and `events` produce events; the others are accepted so that
 * clients which always ask for them work, and produce none.
 */
export const streamModes = [
  "values",
  "updates",
  "messages-tuple",
  "custom",
  "events",
  "messages",
  "debug",
  "tasks",
  "checkpoints",
  "tools",
] as const;

/** One of {@link streamModes}. */
export type StreamMode = (typeof streamModes)[number];

/** The SSE event name each producing mode writes. */
const eventOfMode: Partial<Record<StreamMode, string>> = {
  values: "values",
  updates: "updates",
  "messages-tuple": "messages",
  custom: "custom",
  events: "events",
};

/** Events every stream carries whatever its modes. */
const alwaysSent = new Set(["metadata", "error"]);

/** Whether an SSE event belongs in a stream that asked for `modes`. */
export function eventInModes(event: string, modes: readonly string[]): boolean {
  return alwaysSent.has(event) || modes.some((mode) => eventOfMode[mode as StreamMode] === event);
}
