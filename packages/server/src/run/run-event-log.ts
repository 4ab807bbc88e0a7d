import type { RunEventInput, RunEventRecord, ServerStore } from "../store/server-store.js";

interface PendingEvent extends RunEventInput {
  readonly runId: string;
}

/** What {@link RunEventLog.follow} returns: one follower of one run's changes. */
export interface RunFollower {
  /**
   * Settles with `true` at the run's next change since the follower was taken or last settled
   * (at once if one came meanwhile), or with `false` when `signal` aborts or `timeoutMs` passes.
   */
  next(signal: AbortSignal, timeoutMs: number): Promise<boolean>;
  /** Stops hearing the run. */
  close(): void;
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
  /** The runs whose events are being written now. */
  #writing = new Set<string>();
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
    this.#throwFailure();
  }

  /**
   * Takes back the run's events not yet handed to the store, once its earlier ones are
   * durable, for the caller to write in the same transaction as the run's end (see
   * `ServerStore.updateRun`): a run whose events all came within one turn of the event loop
   * (a `runs.wait` of a quick graph) ends in one write instead of two. The caller wakes the
   * run's followers once they are written.
   *
   * @throws the store's error when a write failed since the last call.
   */
  async takeUnwritten(runId: string): Promise<RunEventInput[]> {
    if (this.#writing.has(runId)) await this.flush();
    this.#throwFailure();
    const taken: RunEventInput[] = [];
    const kept: PendingEvent[] = [];
    for (const pending of this.#pending) {
      if (pending.runId === runId) taken.push({ event: pending.event, data: pending.data });
      else kept.push(pending);
    }
    this.#pending = kept;
    return taken;
  }

  #throwFailure(): void {
    if (this.#failure === undefined) return;
    const failure = this.#failure;
    this.#failure = undefined;
    throw failure;
  }

  /** The run's durable events after `afterSeq`, for its owner only. */
  read(owner: string, runId: string, afterSeq: number, limit: number): Promise<RunEventRecord[]> {
    return this.#store.readEvents(owner, runId, afterSeq, limit);
  }

  /**
   * Hears the run's changes from now on (new durable events, a new status): take it, then
   * read, then wait with {@link RunFollower.next}, so a change made between the read and the
   * wait still wakes it. `close` it when done.
   */
  follow(runId: string): RunFollower {
    let changed = false;
    let wake: (() => void) | undefined;
    const hear = () => {
      changed = true;
      wake?.();
    };
    const waiters = this.#waiters.get(runId) ?? new Set();
    this.#waiters.set(runId, waiters);
    waiters.add(hear);
    return {
      next: (signal, timeoutMs) =>
        new Promise<boolean>((resolve) => {
          let timer: NodeJS.Timeout | undefined;
          const settle = (heard: boolean) => {
            clearTimeout(timer);
            signal.removeEventListener("abort", stop);
            wake = undefined;
            changed = false;
            resolve(heard);
          };
          const stop = () => settle(false);
          if (changed) return settle(true);
          if (signal.aborted) return settle(false);
          timer = setTimeout(stop, timeoutMs);
          wake = () => settle(true);
          signal.addEventListener("abort", stop, { once: true });
        }),
      close: () => {
        waiters.delete(hear);
        if (waiters.size === 0 && this.#waiters.get(runId) === waiters) this.#waiters.delete(runId);
      },
    };
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
      this.#writing = new Set(byRun.keys());
      for (const [runId, events] of byRun) {
        try {
          await this.#store.appendEvents(runId, events);
        } catch (error) {
          this.#failure ??= error;
        }
        this.#writing.delete(runId);
        this.notify(runId);
      }
    }
    this.#flushing = undefined;
  }
}
