/** What a sweep did. */
export interface SweepResult {
  /** Active runs that had no job (Redis flushed or restarted): their job is added again. */
  readonly requeued: readonly string[];
  /** Queued runs made pending because their thread had been left free. */
  readonly promoted: readonly string[];
}
