import { afterEach, describe, expect, it } from "vitest";
import { pendingRun } from "../store/conformance/conformance-context.js";
import { SqliteServerStore } from "../store/sqlite-server-store.js";
import { RunEventLog } from "./run-event-log.js";

const stores: SqliteServerStore[] = [];
afterEach(async () => {
  for (const store of stores.splice(0)) await store.close();
});

function log(): RunEventLog {
  const store = new SqliteServerStore({ path: ":memory:" });
  stores.push(store);
  return new RunEventLog(store);
}

const never = new AbortController().signal;

describe("RunEventLog.follow", () => {
  it("wakes a follower at once for a change made after it was taken and before it waits", async () => {
    const events = log();
    const follower = events.follow("run");
    // The change lands while the follower's reader is between its read and its wait.
    events.notify("run");
    expect(await follower.next(never, 60_000)).toBe(true);
    follower.close();
  });

  it("waits for the next change once it heard one, and only for its own run", async () => {
    const events = log();
    const follower = events.follow("run");
    events.notify("run");
    expect(await follower.next(never, 60_000)).toBe(true);
    const waiting = follower.next(never, 60_000);
    events.notify("other-run");
    events.notifyAll();
    expect(await waiting).toBe(true);
    expect(await follower.next(never, 10)).toBe(false);
    follower.close();
  });

  it("gives up when its signal aborts, and hears nothing once closed", async () => {
    const events = log();
    const follower = events.follow("run");
    const stop = new AbortController();
    const waiting = follower.next(stop.signal, 60_000);
    stop.abort();
    expect(await waiting).toBe(false);
    follower.close();
    events.notify("run");
    expect(await follower.next(never, 10)).toBe(false);
  });
});

describe("RunEventLog.takeUnwritten", () => {
  /** A store whose next append waits until released, as a slow disk would. */
  function slowLog() {
    const store = new SqliteServerStore({ path: ":memory:" });
    stores.push(store);
    let release!: () => void;
    const released = new Promise<void>((resolve) => {
      release = resolve;
    });
    const append = store.appendEvents.bind(store);
    let held = true;
    store.appendEvents = async (runId, events) => {
      if (held) {
        held = false;
        await released;
      }
      return append(runId, events);
    };
    return { store, events: new RunEventLog(store), release };
  }

  it("takes back the run's events not handed to the store yet, and only its own", async () => {
    const store = new SqliteServerStore({ path: ":memory:" });
    stores.push(store);
    const events = new RunEventLog(store);
    const appended: string[] = [];
    const append = store.appendEvents.bind(store);
    store.appendEvents = async (runId, batch) => {
      appended.push(...batch.map(({ event }) => `${runId} ${event}`));
      return append(runId, batch);
    };
    events.append("run", "metadata", { run_id: "run" });
    events.append("other", "values", { n: 0 });
    events.append("run", "values", { n: 1 });
    expect(await events.takeUnwritten("run")).toEqual([
      { event: "metadata", data: { run_id: "run" } },
      { event: "values", data: { n: 1 } },
    ]);
    expect(await events.takeUnwritten("run")).toEqual([]);
    await events.flush();
    expect(appended).toEqual(["other values"]);
  });

  it("waits for the run's events being written before it takes the rest", async () => {
    const { store, events, release } = slowLog();
    await store.createThread({ threadId: "t", owner: "o", metadata: {} }, { ifExists: "raise" });
    await store.insertRun(pendingRun("o", "t", "run", { status: "running" }));
    events.append("run", "metadata", { run_id: "run" });
    // The first batch is handed to the (held) store on the next turn of the event loop.
    await new Promise((resolve) => setImmediate(resolve));
    events.append("run", "values", { n: 1 });
    let taken: unknown;
    const taking = events.takeUnwritten("run").then((rest) => {
      taken = rest;
    });
    await new Promise((resolve) => setImmediate(resolve));
    expect(taken).toBeUndefined();
    release();
    await taking;
    // Behind the held batch, the flush wrote the rest: nothing is left to take.
    expect(taken).toEqual([]);
    const logged = await store.readEvents("o", "run", 0, 10);
    expect(logged.map(({ seq, event }) => [seq, event])).toEqual([
      [1, "metadata"],
      [2, "values"],
    ]);
  });
});
