import { MockChatModel } from "@framework/testing";
import { Client } from "@langchain/langgraph-sdk";
import { afterEach, describe, expect, it } from "vitest";
import { startTestServer, type TestServer, testAgent, twoStepGraph } from "./test-server.js";

let running: TestServer | undefined;
afterEach(async () => {
  await running?.close();
  running = undefined;
});

async function serve(options: Parameters<typeof startTestServer>[0]) {
  running = await startTestServer(options);
  return new Client({ apiUrl: running.url });
}

const hello = { messages: [{ role: "user", content: "hello" }] };

/**
 * What `updateState` answers. The client's type says `{ configurable }`, but LangGraph's
 * servers (and the protocol's OpenAPI) answer `{ checkpoint }`, as this one does.
 */
type UpdateAnswer = {
  checkpoint: { thread_id: string; checkpoint_ns: string; checkpoint_id: string };
};

/** A thread's state with its pending interrupts, which the client's type leaves out. */
type StateWithInterrupts = { interrupts: { id: string }[] };

describe("updating a thread's state with LangGraph's client", () => {
  it("writes as a node, and the next run continues from the updated state", async () => {
    const runs = new Map<string, number>();
    const client = await serve({ graphs: { review: twoStepGraph({ runs }) } });
    const thread = await client.threads.create();
    await client.runs.wait(thread.thread_id, "review", { input: hello });
    const before = await client.threads.getState(thread.thread_id);

    const answer = (await client.threads.updateState(thread.thread_id, {
      values: { draft: "edited by hand" },
      asNode: "write",
    })) as unknown as UpdateAnswer;
    const updated = await client.threads.getState(thread.thread_id);
    expect(answer.checkpoint).toEqual({
      thread_id: thread.thread_id,
      checkpoint_ns: "",
      checkpoint_id: updated.checkpoint.checkpoint_id,
      checkpoint_map: null,
    });
    expect(updated.parent_checkpoint?.checkpoint_id).toBe(before.checkpoint.checkpoint_id);
    expect(updated.values).toMatchObject({ draft: "edited by hand" });
    expect(updated.next).toEqual(["review"]);
    expect(updated.metadata).toMatchObject({ source: "update", writes: { write: null } });

    const values = await client.runs.wait(thread.thread_id, "review", { input: null });
    expect(values).toMatchObject({ draft: "edited by hand", approved: true });
    expect(Object.fromEntries(runs)).toEqual({ write: 1, review: 2 });
    expect((await client.threads.get(thread.thread_id)).status).toBe("idle");
  });

  it("merges an update from outside through the reducers; the next input adds to it", async () => {
    const client = await serve({ graphs: { review: twoStepGraph() } });
    const thread = await client.threads.create();
    await client.runs.wait(thread.thread_id, "review", { input: hello });
    await client.threads.updateState(thread.thread_id, {
      values: { messages: [{ type: "human", content: "a note" }] },
    });
    expect((await client.threads.getState(thread.thread_id)).next).toEqual([]);
    const values = (await client.runs.wait(thread.thread_id, "review", {
      input: { messages: [{ role: "user", content: "again" }] },
    })) as { messages: { content: string }[]; draft: string };
    expect(values.messages.map((m) => m.content)).toEqual([
      "hello",
      "approved",
      "a note",
      "again",
      "approved",
    ]);
    expect(values.draft).toBe("draft for: again");
  });

  it("forks the thread from an older checkpoint", async () => {
    const runs = new Map<string, number>();
    const client = await serve({ graphs: { review: twoStepGraph({ runs }) } });
    const thread = await client.threads.create();
    await client.runs.wait(thread.thread_id, "review", { input: hello });
    const history = await client.threads.getHistory(thread.thread_id, { limit: 100 });
    const afterWrite = history.find((state) => state.next[0] === "review")!;

    const answer = (await client.threads.updateState(thread.thread_id, {
      values: { draft: "a better draft" },
      checkpointId: afterWrite.checkpoint.checkpoint_id!,
    })) as unknown as UpdateAnswer;
    const forked = await client.threads.getState(thread.thread_id);
    expect(forked.checkpoint.checkpoint_id).toBe(answer.checkpoint.checkpoint_id);
    expect(forked.parent_checkpoint?.checkpoint_id).toBe(afterWrite.checkpoint.checkpoint_id);
    expect(forked.values).toMatchObject({ draft: "a better draft" });
    expect(forked.values).not.toHaveProperty("approved");
    expect(forked.next).toEqual(["review"]);

    const values = await client.runs.wait(thread.thread_id, "review", { input: null });
    expect(values).toMatchObject({ draft: "a better draft", approved: true });
    expect(Object.fromEntries(runs)).toEqual({ write: 1, review: 2 });
  });

  it("keeps an interrupted thread interrupted, its interrupt answerable by the same id", async () => {
    const client = await serve({ graphs: { review: twoStepGraph({ askForReview: true }) } });
    const thread = await client.threads.create();
    await client.runs.wait(thread.thread_id, "review", { input: hello });
    const paused = (await client.threads.getState(
      thread.thread_id,
    )) as unknown as StateWithInterrupts;

    await client.threads.updateState(thread.thread_id, { values: { draft: "edited" } });
    const updated = await client.threads.get(thread.thread_id);
    expect(updated.status).toBe("interrupted");
    expect(Object.values(updated.interrupts).flat()).toEqual(paused.interrupts);

    const [{ id }] = paused.interrupts as [{ id: string }];
    expect(paused.interrupts).toHaveLength(1);
    const values = await client.runs.wait(thread.thread_id, "review", {
      command: { resume: { [id]: true } },
    });
    expect(values).toMatchObject({ draft: "edited", approved: true });
  });

  it("updates a rolled-back thread where it stands, not its undone run's checkpoints", async () => {
    let calls = 0;
    const client = await serve({
      graphs: {
        review: twoStepGraph({
          writeGate: () => (++calls === 2 ? new Promise(() => {}) : Promise.resolve()),
        }),
      },
    });
    const thread = await client.threads.create();
    await client.runs.wait(thread.thread_id, "review", { input: hello });
    const before = await client.threads.getState(thread.thread_id);
    const doomed = await client.runs.create(thread.thread_id, "review", {
      input: { messages: [{ role: "user", content: "undone" }] },
    });
    await expect
      .poll(async () => (await client.runs.get(thread.thread_id, doomed.run_id)).status)
      .toBe("running");
    await client.runs.cancel(thread.thread_id, doomed.run_id, true, "rollback");

    await client.threads.updateState(thread.thread_id, { values: { draft: "kept draft" } });
    const updated = await client.threads.getState(thread.thread_id);
    expect(updated.parent_checkpoint?.checkpoint_id).toBe(before.checkpoint.checkpoint_id);
    expect(updated.values).toEqual({ ...before.values, draft: "kept draft" });
  });

  it("takes an agent thread's messages in the forms runs take", async () => {
    const client = await serve({ agents: { banker: testAgent(new MockChatModel(["Hi."])) } });
    const thread = await client.threads.create();
    await client.runs.wait(thread.thread_id, "banker", {
      input: { messages: [{ type: "human", content: "hello" }] },
    });
    await client.threads.updateState(thread.thread_id, {
      values: { messages: [{ type: "ai", content: "(a correction)" }] },
    });
    const state = await client.threads.getState(thread.thread_id);
    const messages = (state.values as { messages: { type: string; content: string }[] }).messages;
    expect(messages.map((m) => [m.type, m.content])).toEqual([
      ["human", "hello"],
      ["ai", "Hi."],
      ["ai", "(a correction)"],
    ]);
    // No values and a node: nothing written, the thread moved on (the agent's node ended).
    await client.threads.updateState(thread.thread_id, { values: null, asNode: "agent" });
    const moved = await client.threads.getState(thread.thread_id);
    expect(moved.values).toEqual(state.values);
    expect(moved.checkpoint.checkpoint_id).not.toBe(state.checkpoint.checkpoint_id);
  });

  it("needs to know the thread's assistant: from its runs, or metadata.graph_id", async () => {
    const client = await serve({ graphs: { review: twoStepGraph() } });
    const bare = await client.threads.create();
    await expect(
      client.threads.updateState(bare.thread_id, { values: { draft: "x" } }),
    ).rejects.toThrow(/409/);

    const named = await client.threads.create({ graphId: "review" });
    await client.threads.updateState(named.thread_id, {
      values: { draft: "seeded" },
      asNode: "write",
    });
    expect(await client.threads.getState(named.thread_id)).toMatchObject({
      values: { draft: "seeded" },
      next: ["review"],
    });
    const values = await client.runs.wait(named.thread_id, "review", { input: null });
    expect(values).toMatchObject({ draft: "seeded", approved: true });
  });

  it("refuses a busy thread, values the state refuses and a node the graph lacks, changing nothing", async () => {
    let release!: () => void;
    const gate = new Promise<void>((resolve) => {
      release = resolve;
    });
    const client = await serve({ graphs: { review: twoStepGraph({ writeGate: () => gate }) } });
    const thread = await client.threads.create();
    const run = await client.runs.create(thread.thread_id, "review", { input: hello });
    await expect
      .poll(async () => (await client.runs.get(thread.thread_id, run.run_id)).status)
      .toBe("running");
    await expect(
      client.threads.updateState(thread.thread_id, { values: { draft: "x" } }),
    ).rejects.toThrow(/409/);
    release();
    await client.runs.join(thread.thread_id, run.run_id);
    const before = await client.threads.getState(thread.thread_id);

    for (const update of [
      { values: { approved: "yes" } },
      { values: { nope: 1 } },
      { values: { draft: "x" }, asNode: "publish" },
    ]) {
      const response = await fetch(`${running!.url}/threads/${thread.thread_id}/state`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ values: update.values, as_node: update.asNode }),
      });
      expect(response.status).toBe(422);
      const body = (await response.json()) as { error: { issues: { path: string[] }[] } };
      expect(body.error.issues[0]?.path[0]).toBe(update.asNode ? "as_node" : "values");
    }
    expect((await client.threads.getState(thread.thread_id)).checkpoint).toEqual(before.checkpoint);
  });
});
