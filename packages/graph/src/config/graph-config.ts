/** Per-run settings a node or a saver may read, keyed as in the spec (`thread_id`, `user_id`). */
export interface GraphConfigurable {
  /** Picks the checkpoint thread; numbers are used as their decimal text. Default `"1"`. */
  thread_id?: string | number;
  /** The user the run acts for; recorded in checkpoint metadata. */
  user_id?: string;
  /**
   * The id of a run started by this call, recorded on each of its checkpoints (default: a
   * fresh UUID). Resuming a stopped run keeps that run's id whatever this says.
   */
  run_id?: string;
  /**
   * Time travel: read (`getState`, `getStateHistory`) or continue (`invoke`, `stream`) the
   * thread from this checkpoint instead of its newest. A run continued from an older
   * checkpoint appends to the thread, its first checkpoint naming that one as parent.
   */
  checkpoint_id?: string;
  [key: string]: unknown;
}

/** Options of one `invoke` or `stream` call. */
export interface GraphConfig {
  configurable?: GraphConfigurable;
  /** Cancels the run: running nodes see it through their context, the run rejects. */
  signal?: AbortSignal;
  /**
   * Drains the run when it fires: no node starts any more, the nodes running go on until
   * they end and are checkpointed, then the run stops as `cancelled` (rejecting with an
   * `AbortedError` whose `cause` is the signal's reason), and `invoke(null)` continues it
   * without re-running them. For a graceful shutdown: drain first, and abort `signal` for
   * what has not ended when the grace period is over. A run that finishes or pauses on an
   * interrupt meanwhile ends as it would have.
   */
  drainSignal?: AbortSignal;
  /** Maximum node runs of this call; overrides the compile-time limit. */
  stepLimit?: number;
  /**
   * Plain JSON merged into the `metadata` of every checkpoint this call writes, e.g. a
   * worker id or a request id a durable saver indexes. `user_id` from `configurable` wins.
   */
  checkpointMetadata?: Readonly<Record<string, unknown>>;
}

/** The thread used when the config names none, as in the spec. */
export const DEFAULT_THREAD_ID = "1";

/** The thread id a config selects. */
export function threadIdOf(config: GraphConfig | undefined): string {
  const id = config?.configurable?.thread_id;
  return id === undefined ? DEFAULT_THREAD_ID : String(id);
}

/** What every checkpoint a call writes holds as `metadata`: its `checkpointMetadata` and `user_id`. */
export function checkpointMetadataOf(config: GraphConfig): Readonly<Record<string, unknown>> {
  const userId = config.configurable?.user_id;
  return Object.freeze({
    ...config.checkpointMetadata,
    ...(userId === undefined ? {} : { user_id: userId }),
  });
}
