/** Per-run settings a node or a saver may read, keyed as in the spec (`thread_id`, `user_id`). */
export interface GraphConfigurable {
  /** Picks the checkpoint thread; numbers are used as their decimal text. Default `"1"`. */
  thread_id?: string | number;
  /** The user the run acts for; recorded in checkpoint metadata. */
  user_id?: string;
  [key: string]: unknown;
}

/** Options of one `invoke` or `stream` call. */
export interface GraphConfig {
  configurable?: GraphConfigurable;
  /** Cancels the run: running nodes see it through their context, the run rejects. */
  signal?: AbortSignal;
  /** Maximum node runs of this call; overrides the compile-time limit. */
  stepLimit?: number;
}

/** The thread used when the config names none, as in the spec. */
export const DEFAULT_THREAD_ID = "1";

/** The thread id a config selects. */
export function threadIdOf(config: GraphConfig | undefined): string {
  const id = config?.configurable?.thread_id;
  return id === undefined ? DEFAULT_THREAD_ID : String(id);
}
