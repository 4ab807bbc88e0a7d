import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Gate } from "@framework/testing";
import { afterEach, describe, expect, it } from "vitest";
import type {
  RunEventInput,
  RunEventRecord,
  RunInsertion,
  RunLimits,
  RunPatch,
  RunRecord,
  RunStart,
  RunUpdateOptions,
} from "../store/server-store.js";
import { SqliteServerStore } from "../store/sqlite-server-store.js";
import { startTestServer, type TestServer, twoStepGraph } from "../test-server.js";

/** The embedded store, recording the writes a run makes, and able to hold its next insertion. */
class RecordingStore extends SqliteServerStore {
  readonly writes: string[] = [];
  #hold: { gate: Gate; after: boolean; reach: () => void } | undefined;

  /**
   * Holds the next `insertRun` before it writes (or, `after`, once it has written, before it
   * answers); `reached` settles once it is held.
   */
  holdNextInsert(after = false): { reached: Promise<void>; gate: Gate } {
    const gate = new Gate();
    const reached = new Promise<void>((reach) => {
      this.#hold = { gate, after, reach };
    });
    return { gate, reached };
  }

  override async insertRun(
    run: Omit<RunRecord, "createdAt" | "updatedAt">,
    limits?: RunLimits,
    start?: RunStart,
  ): Promise<RunInsertion> {
    const held = this.#hold;
    this.#hold = undefined;
    const hold = async () => {
      held?.reach();
      await held?.gate.opened;
    };
    if (held && !held.after) await hold();
    const inserted = await super.insertRun(run, limits, start);
    this.writes.push(`insert ${inserted.run?.status ?? "refused"}`);
    if (held?.after) await hold();
    return inserted;
  }

  override async updateRun(
    runId: string,
    patch: RunPatch,
    options?: RunUpdateOptions,
  ): Promise<RunRecord | undefined> {
    const events = options?.events?.map(({ event }) => event).join(",") ?? "";
    this.writes.push(`update ${patch.status ?? "-"}${events ? ` with ${events}` : ""}`);
    return super.updateRun(runId, patch, options);
  }

  override async appendEvents(
    runId: string,
    events: readonly RunEventInput[],
  ): Promise<RunEventRecord[]> {
    this.writes.push(`append ${events.map(({ event }) => event).join(",")}`);
    return super.appendEvents(runId, events);
  }
}

let running: TestServer | undefined;
afterEach(async () => {
  await running?.close();
  running = undefined;
});

/** Each node's executions, by node name. */
const executions = new Map<string, number>();

async function serve(): Promise<RecordingStore> {
  executions.clear();
  const directory = mkdtempSync(join(tmpdir(), "framework-start-"));
  const store = new RecordingStore({ path: join(directory, "server.sqlite") });
  running = await startTestServer(
    { graphs: { review: twoStepGraph({ runs: executions }) }, store },
    directory,
  );
  return store;
}

const call = async (method: string, path: string, body?: unknown) => {
  const response = await running!.server.fetch(
    new Request(`http://127.0.0.1${path}`, {
      method,
      headers: { "content-type": "application/json" },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    }),
  );
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
};

const newThread = async () => (await call("POST", "/threads", {})).body.thread_id as string;
const run = { assistant_id: "review", input: { messages: [{ role: "user", content: "q" }] } };

/**
 * Creates a run on a new thread and, while `store` holds its insertion (before its write, or
 * `after` it), a second run with `strategy`; `open` lets the first go on.
 */
async function createWhileHeld(store: RecordingStore, strategy: string, after: boolean) {
  const threadId = await newThread();
  const held = store.holdNextInsert(after);
  const first = call("POST", `/threads/${threadId}/runs`, run);
  await held.reached;
  const second = await call("POST", `/threads/${threadId}/runs`, {
    ...run,
    multitask_strategy: strategy,
  });
  return { threadId, first, second, open: () => held.gate.open() };
}

describe("a run started as it is stored", () => {
  it("writes a waited run in two steps: inserted running, ended with its events", async () => {
    const store = await serve();
    const threadId = await newThread();
    const answer = await call("POST", `/threads/${threadId}/runs/wait`, run);
    expect(answer.body).toMatchObject({ approved: true });
    expect(store.writes).toEqual(["insert running", "update success with metadata"]);
    const [ended] = (await call("GET", `/threads/${threadId}/runs`)).body as unknown as [
      { status: string },
    ];
    expect(ended.status).toBe("success");
    expect((await call("GET", `/threads/${threadId}`)).body.status).toBe("idle");
  });

  it("queues a run created while another is being stored behind it", async () => {
    const store = await serve();
    const { threadId, first, second, open } = await createWhileHeld(store, "enqueue", false);
    // Stored while the first was held: it waits, since the first holds the thread's turn.
    expect(second.body.status).toBe("pending");
    open();
    // The first finds the second inflight: it is refused under `reject`.
    expect((await first).status).toBe(409);
    const joined = await call("GET", `/threads/${threadId}/runs/${second.body.run_id}/join`);
    expect(joined.body).toMatchObject({ approved: true });
    expect(store.writes.slice(0, 3)).toEqual([
      "insert pending",
      "insert refused",
      "update running",
    ]);
  });

  it("stops a run stored started that an interrupt run stopped before it executed", async () => {
    const store = await serve();
    // The first is stored running, and its creation has not gone on yet: the second stops it.
    const { threadId, first, second, open } = await createWhileHeld(store, "interrupt", true);
    expect(second.body.status).toBe("pending");
    open();
    const firstRun = (await first).body;
    expect(firstRun.status).toBe("running");
    const joined = await call("GET", `/threads/${threadId}/runs/${second.body.run_id}/join`);
    expect(joined.body).toMatchObject({ approved: true });
    const stopped = await call("GET", `/threads/${threadId}/runs/${firstRun.run_id}`);
    expect(stopped.body.status).toBe("interrupted");
    expect(executions.get("write")).toBe(1);
  });
});
