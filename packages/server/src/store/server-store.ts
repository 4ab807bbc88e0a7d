/** Plain JSON object: what metadata, configs and event payloads are. */
export type JsonObject = { readonly [key: string]: unknown };

/** A thread's status, as the Agent Protocol names it. */
export type ThreadStatus = "idle" | "busy" | "interrupted" | "error";

/** A run's status, as the Agent Protocol names it. */
export type RunStatus = "pending" | "running" | "error" | "success" | "timeout" | "interrupted";

/** What happens to a thread's active run when another is created on it. */
export type MultitaskStrategy = "reject" | "enqueue" | "interrupt" | "rollback";

/** How a run is stopped: keep what it did (`interrupt`), or undo it (`rollback`). */
export type CancelAction = "interrupt" | "rollback";

/** A thread as the server keeps it; its values live in the checkpointer. */
export interface ThreadRecord {
  readonly threadId: string;
  /** The user the thread belongs to; every read and write is scoped to it. */
  readonly owner: string;
  readonly createdAt: string;
  readonly updatedAt: string;
  readonly metadata: JsonObject;
  readonly status: ThreadStatus;
  /** The assistant that last ran on the thread: whose state definition reads its checkpoints. */
  readonly assistantId: string | null;
  /**
   * The checkpoint the thread stands at when it is not its newest: set when a run is rolled
   * back, cleared when the next run starts from it.
   */
  readonly head: string | null;
  /**
   * Made for one thread-less run (`POST /runs/...`): left out of searches, and deleted once
   * its runs' events are trimmed.
   */
  readonly temporary: boolean;
}

/** What a run was asked to do, kept so that any process can start or restart it. */
export interface RunRequest {
  /** The graph input, `null` to continue the thread's stopped run. */
  readonly input: unknown;
  /** `command.resume`: the answer to the thread's pending interrupts. */
  readonly resume?: unknown;
  /**
   * `resume` is a map of interrupt ids (its keys were all pending interrupts' ids when the run
   * was created) answering each of them; otherwise it is the answer to the first.
   */
  readonly resumeByIds?: boolean;
  /** The request's `config`, with `configurable` cleaned of what the server decides. */
  readonly config: JsonObject;
  /** The stream modes whose events are logged for this run. */
  readonly streamMode: readonly string[];
  /** What a dropped streaming client does to the run. */
  readonly onDisconnect: "continue" | "cancel";
  /** Time travel: continue the thread from this checkpoint instead of its newest. */
  readonly checkpointId: string | null;
  /** The thread was made for this run alone and goes when it ends (a thread-less run). */
  readonly temporary: boolean;
  /** The URL POSTed to when the run ends (the protocol's `webhook`). */
  readonly webhook?: string;
}

/** A failure as a client sees it: no stack, no secret. */
export interface RunFailure {
  /** The error's class name, e.g. `"NodeExecutionError"`. */
  readonly type: string;
  readonly message: string;
}

/** A run as the server keeps it. */
export interface RunRecord {
  readonly runId: string;
  readonly threadId: string;
  readonly assistantId: string;
  readonly owner: string;
  readonly status: RunStatus;
  readonly createdAt: string;
  readonly updatedAt: string;
  readonly metadata: JsonObject;
  readonly multitaskStrategy: MultitaskStrategy;
  readonly request: RunRequest;
  /** Why the run failed, when it did. */
  readonly error: RunFailure | null;
  /** How many times the run was started: above 1 after a restart resumed it. */
  readonly attempt: number;
  /**
   * The thread's newest checkpoint when the run first started (`null` before it did, or on a
   * thread with none): where a rollback returns to.
   */
  readonly checkpointBefore: string | null;
  /** A stop asked for and not yet carried out; kept so a restart honours it. */
  readonly cancel: CancelAction | null;
}

/** One logged event of a run, numbered from 1 in the order it happened. */
export interface RunEventRecord {
  readonly runId: string;
  readonly seq: number;
  /** The SSE event name, e.g. `"values"`, `"updates"`, `"events"`, `"error"`. */
  readonly event: string;
  readonly data: unknown;
}

/** Options of {@link ServerStore.searchThreads}. */
export interface ThreadSearch {
  /** Threads whose metadata holds every one of these top-level key/value pairs. */
  readonly metadata?: JsonObject;
  readonly status?: ThreadStatus;
  /** Only these threads. */
  readonly ids?: readonly string[];
  readonly limit: number;
  readonly offset: number;
  readonly sortBy: "thread_id" | "status" | "created_at" | "updated_at";
  readonly sortOrder: "asc" | "desc";
}

/** Options of {@link ServerStore.listRuns}. */
export interface RunList {
  readonly limit: number;
  readonly offset: number;
  readonly status?: RunStatus;
}

/**
 * Per-owner limits {@link ServerStore.insertRun} holds in its atomic step: a run is not inserted
 * when its owner already has that many runs.
 */
export interface RunLimits {
  /** The most runs the owner may have pending or running. */
  readonly maxActive?: number;
  /** The most runs the owner may have pending. */
  readonly maxPending?: number;
}

/** An event to log for a run, as the engine hands it to the store. */
export interface RunEventInput {
  /** Its name: the SSE event (`values`, `updates`, `messages`, …). */
  readonly event: string;
  /** Its data, as JSON. */
  readonly data: unknown;
}

/** What {@link ServerStore.updateRun} changes with the run, in the same transaction. */
export interface RunUpdateOptions {
  /** The thread's new status, and the assistant of its latest run. */
  readonly thread?: { readonly status: ThreadStatus; readonly assistantId?: string };
  /**
   * Events logged for the run before the change, numbered on from its last one: a run's
   * last events commit with its end.
   */
  readonly events?: readonly RunEventInput[];
}

/**
 * Starts a run as {@link ServerStore.insertRun} stores it, when its thread is free: the
 * process inserting it executes it at once, and saves the write that would start it.
 */
export interface RunStart {
  /** Where the thread stands as the run starts: the checkpoint a rollback returns to. */
  readonly checkpointBefore: string | null;
}

/** The outcome of {@link ServerStore.insertRun}. */
export interface RunInsertion {
  /** The new run, unless the thread was busy under `reject` or a limit refused it. */
  readonly run: RunRecord | undefined;
  /** The thread's other pending or running runs, oldest first, as they were at insertion. */
  readonly inflight: readonly RunRecord[];
  /** The limit that refused the run, with the owner's count it was held against. */
  readonly overLimit?: { readonly limit: "active" | "pending"; readonly current: number };
}

/** The outcome of {@link ServerStore.countRuns}. */
export interface RunCounts {
  /** Runs waiting to start. */
  readonly pending: number;
  /** Runs executing. */
  readonly running: number;
}

/** What may change on a run after it is created. */
export type RunPatch = Partial<
  Pick<RunRecord, "status" | "error" | "attempt" | "cancel" | "checkpointBefore">
>;

/** What a change to a run, seen by a store shared by several processes, was. */
export type RunChangeKind =
  /** New events were logged. */
  | "events"
  /** Its status or its stop request changed, or it was deleted. */
  | "run";

/** Hears, in one process, the changes made to runs by every process sharing a store. */
export interface RunWatcher {
  /** A run changed, in this process or another one. */
  changed(runId: string, kind: RunChangeKind): void;
  /**
   * The store's link to the other processes broke: the changes made meanwhile are not heard,
   * and every thread lease this process held is gone (another process may take its runs over).
   */
  lost(): void;
  /** The link is back after {@link RunWatcher.lost}: any run may have changed meanwhile. */
  resumed(): void;
}

/** What a cron's every tick asks of its run: the run request it repeats. */
export interface CronRunTemplate {
  /** The graph input of each run, `null` for none. */
  readonly input: unknown;
  /** The runs' `config`, with `configurable` cleaned of what the server decides. */
  readonly config: JsonObject;
  readonly multitaskStrategy: MultitaskStrategy;
  /** The stream modes whose events each run logs. */
  readonly streamMode: readonly string[];
  /** A URL told when each run ends, as a run's own `webhook` is. */
  readonly webhook: string | null;
}

/** A schedule of runs, as the server keeps it. */
export interface CronRecord {
  readonly cronId: string;
  /** The user the cron belongs to, and whose runs its ticks create. */
  readonly owner: string;
  readonly assistantId: string;
  /** The thread each tick runs on; `null`: each tick runs on a new thread of its own. */
  readonly threadId: string | null;
  /** A cron expression: 5 fields, or 6 with seconds first. */
  readonly schedule: string;
  /** The IANA time zone the schedule is read in; `null` for UTC. */
  readonly timezone: string | null;
  /** No tick after this instant (ISO time). */
  readonly endTime: string | null;
  /** A disabled cron keeps its schedule but has no next tick. */
  readonly enabled: boolean;
  /** The next tick (ISO time); `null` while disabled, or when none is left before `endTime`. */
  readonly nextRunDate: string | null;
  /** For a thread-less cron: whether each tick's thread is kept once its run ends. */
  readonly onRunCompleted: "delete" | "keep";
  readonly run: CronRunTemplate;
  readonly metadata: JsonObject;
  readonly createdAt: string;
  readonly updatedAt: string;
}

/** What may change on a cron; each field given replaces the cron's. */
export type CronPatch = Partial<
  Pick<
    CronRecord,
    | "schedule"
    | "timezone"
    | "endTime"
    | "enabled"
    | "nextRunDate"
    | "onRunCompleted"
    | "run"
    | "metadata"
  >
>;

/** Which crons {@link ServerStore.countCrons} counts, and {@link ServerStore.searchCrons} finds. */
export interface CronFilter {
  readonly assistantId?: string;
  readonly threadId?: string;
  /** Crons whose metadata holds every one of these top-level key/value pairs. */
  readonly metadata?: JsonObject;
}

/** Options of {@link ServerStore.searchCrons}. */
export interface CronSearch extends CronFilter {
  readonly enabled?: boolean;
  readonly limit: number;
  readonly offset: number;
  readonly sortBy:
    | "cron_id"
    | "assistant_id"
    | "thread_id"
    | "created_at"
    | "updated_at"
    | "next_run_date";
  readonly sortOrder: "asc" | "desc";
}

/**
 * Where the server keeps threads, runs, run events and crons. Every method that takes an `owner`
 * filters by it in the query itself, so another user's record is never loaded; methods
 * without one are the engine's own and take ids it already checked.
 *
 * Implementations: `SqliteServerStore` (embedded, the default) and, for several server
 * processes sharing one database, `PostgresServerStore` (`@framework/server-postgres`). Each
 * must pass the conformance suite in `store/conformance`.
 */
export interface ServerStore {
  /**
   * Creates a thread. With `ifExists: "do_nothing"` an existing thread of the same owner is
   * returned as it is; `"taken"` means the id belongs to an existing thread the caller may not
   * reuse (another owner's, or its own with `ifExists: "raise"`).
   */
  createThread(
    thread: Pick<ThreadRecord, "threadId" | "owner" | "metadata"> & { temporary?: boolean },
    options: { ifExists: "raise" | "do_nothing" },
  ): Promise<ThreadRecord | "taken">;
  getThread(owner: string, threadId: string): Promise<ThreadRecord | undefined>;
  /** `owner`'s threads that match, temporary ones left out. */
  searchThreads(owner: string, search: ThreadSearch): Promise<ThreadRecord[]>;
  /** Merges `metadata` into the thread's metadata. */
  patchThread(
    owner: string,
    threadId: string,
    patch: { metadata: JsonObject },
  ): Promise<ThreadRecord | undefined>;
  /**
   * Deletes the thread with its runs, their events and the crons running on it; `false` when
   * there was none.
   */
  deleteThread(owner: string, threadId: string): Promise<boolean>;
  /** The engine records a thread's new status (and the assistant of its latest run). */
  setThreadStatus(threadId: string, status: ThreadStatus, assistantId?: string): Promise<void>;
  /** The engine moves a thread's head (see {@link ThreadRecord.head}). */
  setThreadHead(threadId: string, head: string | null): Promise<void>;

  /**
   * Adds a run to its thread as one atomic step: with `reject`, only when the thread has no
   * pending or running run, and only within `limits` of its owner's runs (counted in the same
   * step, so racing insertions, from any client, never exceed them). The inflight runs are
   * returned either way.
   *
   * With `start`, a run on a thread with no pending or running run is inserted already
   * started: `running`, with `start.checkpointBefore`, and its thread `busy` with the run's
   * assistant, all in the same step (what {@link updateRun} would do next). On a thread with
   * inflight runs, it is inserted as given, to wait its turn.
   */
  insertRun(
    run: Omit<RunRecord, "createdAt" | "updatedAt">,
    limits?: RunLimits,
    start?: RunStart,
  ): Promise<RunInsertion>;
  /** A run of `owner`; with `threadId`, only if it belongs to that thread. */
  getRun(owner: string, runId: string, threadId?: string): Promise<RunRecord | undefined>;
  /** The thread's runs, newest first. */
  listRuns(owner: string, threadId: string, list: RunList): Promise<RunRecord[]>;
  /**
   * Changes a run and, in the same transaction, what `options` name: its thread's status, and
   * events logged first (as {@link appendEvents} logs them).
   */
  updateRun(
    runId: string,
    patch: RunPatch,
    options?: RunUpdateOptions,
  ): Promise<RunRecord | undefined>;
  deleteRun(runId: string): Promise<void>;
  /**
   * How many runs wait to start and how many execute: `owner`'s, or every owner's. The run
   * quotas and the queue-depth metrics read it.
   */
  countRuns(owner?: string): Promise<RunCounts>;
  /** The thread's oldest pending run, the next to start. */
  nextPendingRun(threadId: string): Promise<RunRecord | undefined>;
  /**
   * Runs left pending or running, oldest first: what a restarted server picks up; only the
   * thread's with `threadId` (what a worker woken for one thread reads).
   */
  unfinishedRuns(threadId?: string): Promise<RunRecord[]>;

  /** Logs events of a run, numbering them on from its last one. */
  appendEvents(runId: string, events: readonly RunEventInput[]): Promise<RunEventRecord[]>;
  /** The events of `owner`'s run after `afterSeq`, in order, at most `limit`. */
  readEvents(
    owner: string,
    runId: string,
    afterSeq: number,
    limit: number,
  ): Promise<RunEventRecord[]>;
  /** Deletes the events of runs that ended before `endedBefore` (ISO time); returns how many. */
  trimEvents(endedBefore: string): Promise<number>;
  /** Temporary threads not running anything and unchanged since `updatedBefore`. */
  expiredTemporaryThreads(
    updatedBefore: string,
  ): Promise<Pick<ThreadRecord, "threadId" | "owner">[]>;

  /** Adds a cron. */
  createCron(cron: Omit<CronRecord, "createdAt" | "updatedAt">): Promise<CronRecord>;
  getCron(owner: string, cronId: string): Promise<CronRecord | undefined>;
  /** `owner`'s crons that match. */
  searchCrons(owner: string, search: CronSearch): Promise<CronRecord[]>;
  /** How many of `owner`'s crons match. */
  countCrons(owner: string, filter: CronFilter): Promise<number>;
  updateCron(owner: string, cronId: string, patch: CronPatch): Promise<CronRecord | undefined>;
  /** `false` when `owner` had no such cron. */
  deleteCron(owner: string, cronId: string): Promise<boolean>;
  /**
   * The engine's view of what fires next: enabled crons with a next tick, soonest first, at
   * most `limit`, every owner's.
   */
  upcomingCrons(limit: number): Promise<CronRecord[]>;
  /**
   * Claims the cron's tick `due` for this process as one atomic step: moves its next tick
   * from `due` to `next` and returns the cron, only if it is enabled and its next tick was
   * still `due`. Of processes racing for one tick, exactly one gets the cron back.
   */
  claimCronTick(cronId: string, due: string, next: string | null): Promise<CronRecord | undefined>;

  /**
   * For a store shared by several server processes: calls `watcher` with every change of a
   * run made by any of them (including this one), from when the returned promise settles,
   * until the function it settles with is called. A store for one process leaves it out.
   */
  watchRuns?(watcher: RunWatcher): Promise<() => void>;
  /**
   * For a store shared by several server processes: takes the thread for this process, so it
   * alone executes the thread's runs, for as long as this process lives (a crashed process's
   * leases go with it) or until {@link ServerStore.releaseThread}. `false` when another live
   * process holds it. Leases are counted: each one taken is released once.
   */
  leaseThread?(threadId: string): Promise<boolean>;
  /** Gives a lease of {@link ServerStore.leaseThread} back. */
  releaseThread?(threadId: string): Promise<void>;
  /**
   * Whether this process still holds the thread's lease, as the shared store sees it now: a
   * process paused past its lease's expiry finds it taken over, and records nothing more of
   * the run it was executing.
   */
  holdsThread?(threadId: string): Promise<boolean>;

  close(): Promise<void>;
}
