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
