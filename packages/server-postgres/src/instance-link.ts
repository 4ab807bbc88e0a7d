import type { RunChangeKind, RunWatcher } from "@framework/server";
import type pg from "pg";

/** The notification payload's prefix of each kind of change. */
const kindPrefixes: Record<string, RunChangeKind> = { e: "events", r: "run" };

/** The payload of a change of `runId`, as the store's statements send it. */
export function changePayload(kind: RunChangeKind, runId: string): string {
  return `${kind === "events" ? "e" : "r"}:${runId}`;
}

/**
 * A server instance's one dedicated connection to Postgres: it `LISTEN`s for run changes made
 * by every instance (fanned out to this instance's watchers) and holds the instance's thread
 * leases as session advisory locks, which Postgres releases by itself when the instance dies.
 * When the connection breaks, watchers hear `lost` (the leases went with it); it connects again
 * with backoff and they hear `resumed`.
 *
 * A paused process (SIGSTOP, a debugger, a VM frozen) keeps its TCP connection, since the
 * kernel still acknowledges it, so its locks would never go: the connection sets
 * `idle_session_timeout` to `leaseTimeoutMs` and a live process queries it three times as
 * often, so Postgres ends the session of one that stopped answering, and its locks with it.
 */
export class InstanceLink {
  readonly #pool: pg.Pool;
  readonly #channel: string;
  readonly #setup: () => Promise<void>;
  readonly #leaseTimeoutMs: number;
  readonly #onLost: () => void;
  readonly #watchers = new Set<RunWatcher>();
  #client: Promise<pg.PoolClient> | undefined;
  readonly #released = new WeakSet<pg.PoolClient>();
  /** The statement last sent on the connection, settled or not: the next one waits for it. */
  #turn: Promise<void> = Promise.resolve();
  readonly #heartbeats = new WeakMap<pg.PoolClient, NodeJS.Timeout>();
  #reconnecting = false;
  #closed = false;

  /**
   * @param setup creates the tables first, so a lease is never taken on a schema not migrated.
   * @param onLost hears the connection break before the watchers do.
   */
  constructor(
    pool: pg.Pool,
    channel: string,
    setup: () => Promise<void>,
    options: { leaseTimeoutMs: number; onLost: () => void },
  ) {
    this.#pool = pool;
    this.#channel = channel;
    this.#setup = setup;
    this.#leaseTimeoutMs = options.leaseTimeoutMs;
    this.#onLost = options.onLost;
  }

  /**
   * Adds a watcher once the connection listens; the function returned removes it. When
   * Postgres cannot be reached it throws, but the watcher stays: the link keeps trying, and
   * the watcher hears `resumed` once it connects.
   */
  async watch(watcher: RunWatcher): Promise<() => void> {
    this.#watchers.add(watcher);
    try {
      await this.#connect();
    } catch (error) {
      this.#reconnect(1);
      throw error;
    }
    return () => {
      this.#watchers.delete(watcher);
    };
  }

  /** Takes the advisory lock `key` for this instance unless another session holds it. */
  async lease(key: string): Promise<boolean> {
    const client = await this.#connect();
    const { rows } = await this.#query<{ leased: boolean }>(
      client,
      "SELECT pg_try_advisory_lock(hashtextextended($1, 0)) AS leased",
      [key],
    );
    return rows[0]?.leased === true;
  }

  /**
   * Runs one statement on `client` once the ones before it on the connection are done: leases,
   * releases and heartbeats come from unrelated callers, and node-postgres is deprecating
   * statements sent to a client still busy with another.
   */
  #query<R extends pg.QueryResultRow>(
    client: pg.PoolClient,
    text: string,
    values: unknown[] = [],
  ): Promise<pg.QueryResult<R>> {
    const result = this.#turn.then(() => client.query<R>(text, values));
    this.#turn = result.then(
      () => undefined,
      () => undefined,
    );
    return result;
  }

  /** Gives the lock `key` back; a broken connection already gave it back. */
  async release(key: string): Promise<void> {
    const client = await this.#client?.catch(() => undefined);
    if (!client) return;
    await this.#query(client, "SELECT pg_advisory_unlock(hashtextextended($1, 0))", [key]).catch(
      () => undefined,
    );
  }

  /** Ends the connection, and with it every lease. */
  async close(): Promise<void> {
    this.#closed = true;
    const client = await this.#client?.catch(() => undefined);
    this.#client = undefined;
    if (!client) return;
    // Given back before the connection goes, so another instance can take them at once
    // (a closed connection's locks go only once its server process has ended).
    await this.#query(client, "SELECT pg_advisory_unlock_all()").catch(() => undefined);
    this.#drop(client);
  }

  /** Destroys `client` once, however many of its events ask for it. */
  #drop(client: pg.PoolClient): boolean {
    if (this.#released.has(client)) return false;
    this.#released.add(client);
    clearInterval(this.#heartbeats.get(client));
    client.release(true);
    return true;
  }

  #connect(): Promise<pg.PoolClient> {
    if (this.#closed) return Promise.reject(new Error("The store was closed"));
    this.#client ??= this.#open().catch((error: unknown) => {
      this.#client = undefined;
      throw error;
    });
    return this.#client;
  }

  async #open(): Promise<pg.PoolClient> {
    await this.#setup();
    const client = await this.#pool.connect();
    const heartbeat = setInterval(
      () => void this.#query(client, "SELECT 1").catch(() => undefined),
      Math.max(1, Math.floor(this.#leaseTimeoutMs / 3)),
    );
    heartbeat.unref();
    this.#heartbeats.set(client, heartbeat);
    const broke = () => {
      if (!this.#drop(client)) return;
      this.#client = undefined;
      this.#onLost();
      if (this.#closed) return;
      for (const watcher of [...this.#watchers]) watcher.lost();
      this.#reconnect(1);
    };
    // Without an `error` listener a connection dropped while idle would crash the process.
    client.on("error", broke);
    client.on("end", broke);
    client.on("notification", (message) => {
      if (message.channel !== this.#channel || !message.payload) return;
      const kind = kindPrefixes[message.payload.slice(0, 1)];
      if (kind === undefined) return;
      const runId = message.payload.slice(2);
      for (const watcher of [...this.#watchers]) watcher.changed(runId, kind);
    });
    try {
      await client.query(`SET idle_session_timeout = ${Math.ceil(this.#leaseTimeoutMs)}`);
      await client.query(`LISTEN "${this.#channel}"`);
    } catch (error) {
      this.#drop(client);
      throw error;
    }
    return client;
  }

  #reconnect(attempt: number): void {
    if (this.#reconnecting) return;
    this.#reconnecting = true;
    const delay = Math.min(100 * 2 ** attempt, 5_000);
    setTimeout(() => {
      this.#reconnecting = false;
      if (this.#closed) return;
      this.#connect().then(
        () => {
          for (const watcher of [...this.#watchers]) watcher.resumed();
        },
        () => this.#reconnect(attempt + 1),
      );
    }, delay).unref();
  }
}
