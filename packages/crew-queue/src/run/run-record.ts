/**
 * Where a run stands, as Postgres records it: `queued` (behind another run of its thread),
 * `pending` (waiting for a worker), `running` (a worker holds its lease), then `done`,
 * `failed` or `cancelled`. Only `pending` and `running` are active: one per thread.
 */
export type RunStatus = "queued" | "pending" | "running" | "done" | "failed" | "cancelled";

/** The statuses a run ends in (until `resume`). */
export const finalStatuses: ReadonlySet<RunStatus> = new Set(["done", "failed", "cancelled"]);

/** One row of the `crew_runs` table. */
export interface RunRecord {
  readonly runId: string;
  readonly threadId: string;
  /** The name of the crew factory that runs it. */
  readonly crew: string;
  readonly status: RunStatus;
  /** What was submitted. */
  readonly input: RunInput;
  /** The current lease: every checkpoint a worker writes is fenced by it. */
  readonly leaseEpoch: number;
  /** How many times a worker took the run (first start and every takeover). */
  readonly attempts: number;
  /** The worker holding or last holding the run. */
  readonly worker: string | undefined;
  /** Set by `cancel`; the holder stops at once, a later taker ends the run as cancelled. */
  readonly cancelRequested: boolean;
  /** The final state of a `done` run. */
  readonly result: unknown;
  /** Why a `failed` run failed. */
  readonly error: string | undefined;
  readonly createdAt: Date;
  readonly startedAt: Date | undefined;
  readonly finishedAt: Date | undefined;
}

/**
 * What a run is asked to do: a `query` (a crew's first user message) or a graph `input`, for
 * a user, on a thread.
 */
export interface RunInput {
  /** The question: the run's input is `{ messages: { role: "user", content: query } }`. */
  readonly query?: string;
  /** The graph input, for crews whose state takes more than a question. Wins over `query`. */
  readonly input?: Readonly<Record<string, unknown>>;
  /** Who asks; the run's `configurable.user_id`. */
  readonly userId?: string;
  /** The conversation thread; a new one (a UUID) when not given. */
  readonly threadId?: string | number;
}
