import { afterEach, describe, expect, it } from "vitest";
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
