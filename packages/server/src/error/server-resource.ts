/** The kinds of thing a request names by id. */
export type ServerResource = "assistant" | "thread" | "run" | "checkpoint" | "chat" | "cron";

/** `"thread"` → `"Thread"`, for messages. */
export function capitalized(resource: ServerResource): string {
  return resource.charAt(0).toUpperCase() + resource.slice(1);
}
