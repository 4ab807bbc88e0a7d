import type { RunEventRecord, ServerStore } from "../store/server-store.js";

interface PendingEvent {
  readonly runId: string;
  readonly event: string;
  readonly data: unknown;
}

/**
 * The runs' event logs: events are numbered and written to the store in batches (one write
 * per run per turn of the event loop, not one per token), and followers are woken only once
 * what they will read is durable, so an event id a client saw always means the same event,
 * even after a crash.
 */
export class RunEventLog {
  readonly #store: ServerStore;
  #pending: PendingEvent[] = [];
  #flushing: Promise<void> | undefined;
  #failure: unknown;
  readonly #waiters = new Map<string, Set<() => void>>();

  constructor(store: ServerStore) {
    this.#store = store;
  }

  /** Queues an event of a run; it is written within a turn of the event loop. */
  append(runId: string, event: string, data: unknown): void {
    this.#pending.push({ runId, event, data });
    this.#flushing ??= new Promise<void>((resolve) => setImmediate(resolve)).then(() =>
      this.#writeAll(),
    );
  }

  /**
   * Settles once every event appended so far is durable.
   *
   * @throws the store's error when a write failed since the last call.
   */
  async flush(): Promise<void> {
    while (this.#flushing) await this.#flushing;
    if (this.#failure !== undefined) {
      const failure = this.#failure;
      this.#failure = undefined;
      throw failure;
    }
  }

  /** The run's durable events after `afterSeq`, for its owner only. */
  read(owner: string, runId: string, afterSeq: number, limit: number): Promise<RunEventRecord[]> {
    return this.#store.readEvents(owner, runId, afterSeq, limit);
  }

  /**
   * Settles at the run's next change (new durable events, or a new status) with `true`, or
   * with `false` when `signal` aborts or `timeoutMs` passes first.
   */
  changed(runId: string, signal: AbortSignal, timeoutMs: number): Promise<boolean> {
    return new Promise((resolve) => {
      const waiters = this.#waiters.get(runId) ?? new Set();
      this.#waiters.set(runId, waiters);
      const settle = (changed: boolean) => {
        clearTimeout(timer);
        signal.removeEventListener("abort", stop);
        waiters.delete(wake);
        if (waiters.size === 0 && this.#waiters.get(runId) === waiters) this.#waiters.delete(runId);
        resolve(changed);
      };
      const wake = () => settle(true);
      const stop = () => settle(false);
      const timer = setTimeout(stop, timeoutMs);
      waiters.add(wake);
      if (signal.aborted) stop();
      else signal.addEventListener("abort", stop, { once: true });
    });
  }

  /** Wakes the run's followers: its status changed. */
  notify(runId: string): void {
    for (const wake of [...(this.#waiters.get(runId) ?? [])]) wake();
  }

  /** Wakes every follower: changes made elsewhere may have gone unheard. */
  notifyAll(): void {
    for (const runId of [...this.#waiters.keys()]) this.notify(runId);
  }

  async #writeAll(): Promise<void> {
    while (this.#pending.length > 0) {
      const batch = this.#pending;
      this.#pending = [];
      const byRun = new Map<string, PendingEvent[]>();
      for (const event of batch) {
        const list = byRun.get(event.runId) ?? [];
        list.push(event);
        byRun.set(event.runId, list);
      }
      for (const [runId, events] of byRun) {
        try {
          await this.#store.appendEvents(runId, events);
        } catch (error) {
          this.#failure ??= error;
        }
        this.notify(runId);
      }
    }
    this.#flushing = undefined;
  }
}
