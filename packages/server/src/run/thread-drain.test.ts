import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import type { RunRecord } from "../store/server-store.js";
import { SqliteServerStore } from "../store/sqlite-server-store.js";
import { startTestServer, type TestServer, twoStepGraph } from "../test-server.js";

/**
 * A store whose next read that finds no pending run answers only once released: the thread's
 * drain has then decided there is nothing left, and has not ended yet.
 */
class PausingStore extends SqliteServerStore {
  #pause: { reached: () => void; released: Promise<void> } | undefined;

  /** Pauses the next empty `nextPendingRun`; `reached` settles once it is paused there. */
  pauseNextEmptyRead(): { reached: Promise<void>; release: () => void } {
    let reached!: () => void;
    let release!: () => void;
    const reachedPromise = new Promise<void>((resolve) => {
      reached = resolve;
    });
    const released = new Promise<void>((resolve) => {
      release = resolve;
    });
    this.#pause = { reached, released };
    return { reached: reachedPromise, release };
  }

  override async nextPendingRun(threadId: string): Promise<RunRecord | undefined> {
    const run = await super.nextPendingRun(threadId);
    const pause = this.#pause;
    if (!run && pause) {
      this.#pause = undefined;
      pause.reached();
      await pause.released;
    }
    return run;
  }
}

let running: TestServer | undefined;
afterEach(async () => {
  await running?.close();
  running = undefined;
});

const post = (path: string, body: unknown) =>
  running!.server.fetch(
    new Request(`http://127.0.0.1${path}`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify(body),
    }),
  );

describe("a thread's runs, one after another", () => {
  it("runs a run created while the thread's drain is ending, after it found nothing left", async () => {
    const directory = mkdtempSync(join(tmpdir(), "framework-drain-"));
    const store = new PausingStore({ path: join(directory, "server.sqlite") });
    running = await startTestServer({ graphs: { review: twoStepGraph() }, store }, directory);
    const { server } = running;
    const { thread_id: threadId } = (await (await post("/threads", {})).json()) as {
      thread_id: string;
    };
    const run = { assistant_id: "review", input: { messages: [{ role: "user", content: "q" }] } };

    const paused = store.pauseNextEmptyRead();
    expect((await post(`/threads/${threadId}/runs`, run)).status).toBe(200);
    await paused.reached;
    const created = await post(`/threads/${threadId}/runs`, {
      ...run,
      multitask_strategy: "enqueue",
    });
    const { run_id: runId } = (await created.json()) as { run_id: string };
    paused.release();

    const joined = await server.fetch(
      new Request(`http://127.0.0.1/threads/${threadId}/runs/${runId}/join`),
    );
    expect(await joined.json()).toMatchObject({ approved: true });
    const ended = await server.fetch(
      new Request(`http://127.0.0.1/threads/${threadId}/runs/${runId}`),
    );
    expect(await ended.json()).toMatchObject({ status: "success" });
  });
});
