// Our server's answers as the floor of item 11 replays them: recorded by the bench, read by the
// floor's child process.

/** One answer of our server, as sent: status, headers and the body in the pieces it came in. */
export interface RecordedAnswer {
  readonly status: number;
  readonly headers: readonly (readonly [string, string])[];
  /** The body: one piece for JSON, one SSE frame (ending in a blank line) per piece for a stream. */
  readonly pieces: readonly string[];
}

/** Recorded answers by {@link routeKey}. */
export type RecordedAnswers = Readonly<Record<string, RecordedAnswer>>;

const uuid = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/gi;

/** `POST /threads/:id/runs/wait`: a request's method and path, its ids left out. */
export function routeKey(method: string, path: string): string {
  return `${method.toUpperCase()} ${path.replace(uuid, ":id")}`;
}
