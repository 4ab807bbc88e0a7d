import type { Logger } from "@framework/core";
import type pg from "pg";
import type { RunNotice, RunStore } from "./run-store.js";

type Listener = (notice: RunNotice | "reconnected") => void;

/**
 * One `LISTEN` connection per process on the runs' channel, fanned out to listeners by run id
 * (or to every listener, `"*"`). When the connection breaks (a Postgres restart) it connects
 * again with backoff and tells every listener `"reconnected"`, so it re-reads what it may have
 * missed from the table.
 */
export class RunNotifications {
  readonly #store: RunStore;
  readonly #logger: Logger;
  readonly #listeners = new Map<string, Set<Listener>>();
  #client: Promise<pg.PoolClient> | undefined;
  #closed = false;

  constructor(store: RunStore, logger: Logger) {
    this.#store = store;
    this.#logger = logger;
  }

  /**
   * Calls `listener` with every notice about `runId` (`"*"`: every run) from the moment the
   * returned promise resolves; the function it resolves to stops that.
   */
  async subscribe(runId: string, listener: Listener): Promise<() => void> {
    let set = this.#listeners.get(runId);
    if (!set) {
      set = new Set();
      this.#listeners.set(runId, set);
    }
    set.add(listener);
    try {
      await this.#connect();
    } catch (error) {
      set.delete(listener);
      throw error;
    }
    return () => {
      set.delete(listener);
      if (set.size === 0 && this.#listeners.get(runId) === set) this.#listeners.delete(runId);
    };
  }

  /** Ends the connection. */
  async close(): Promise<void> {
    this.#closed = true;
    const client = await this.#client?.catch(() => undefined);
    this.#client = undefined;
    client?.release(true);
  }

  #connect(): Promise<pg.PoolClient> {
    this.#client ??= this.#open().catch((error: unknown) => {
      this.#client = undefined;
      throw error;
    });
    return this.#client;
  }

  async #open(): Promise<pg.PoolClient> {
    await this.#store.setup();
    const client = await this.#store.connect();
    client.on("notification", (message) => {
      if (message.channel !== this.#store.channel || !message.payload) return;
      const notice = JSON.parse(message.payload) as RunNotice;
      this.#dispatch(notice.runId, notice);
      this.#dispatch("*", notice);
    });
    client.on("error", (error) => {
      this.#logger.warn(`crew-queue: the run notification connection broke: ${error.message}`);
      client.release(true);
      this.#client = undefined;
      if (!this.#closed) this.#reconnect(1);
    });
    await client.query(`LISTEN "${this.#store.channel}"`);
    return client;
  }

  #reconnect(attempt: number): void {
    const delay = Math.min(100 * 2 ** attempt, 5_000);
    setTimeout(() => {
      if (this.#closed) return;
      this.#connect().then(
        () => {
          for (const set of this.#listeners.values()) {
            for (const listener of set) listener("reconnected");
          }
        },
        () => this.#reconnect(attempt + 1),
      );
    }, delay).unref();
  }

  #dispatch(key: string, notice: RunNotice): void {
    for (const listener of this.#listeners.get(key) ?? []) listener(notice);
  }
}
