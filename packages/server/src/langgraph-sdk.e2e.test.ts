import { MockChatModel, mockToolCall } from "@framework/testing";
import { Client } from "@langchain/langgraph-sdk";
import { MessageTupleManager } from "@langchain/langgraph-sdk/ui";
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

async function collect<T>(stream: AsyncIterable<T>): Promise<T[]> {
  const items: T[] = [];
  for await (const item of stream) items.push(item);
  return items;
}

describe("LangGraph's own client against the server", () => {
  it("lists the served agents and graphs as assistants, by name and by id", async () => {
    const client = await serve({
      agents: { banker: testAgent(new MockChatModel()) },
      graphs: { review: twoStepGraph() },
    });
    const assistants = await client.assistants.search();
    expect(assistants.map((a) => a.graph_id).sort()).toEqual(["banker", "review"]);
    const review = assistants.find((a) => a.graph_id === "review")!;
    expect((await client.assistants.get(review.assistant_id)).graph_id).toBe("review");
    const graph = await client.assistants.getGraph("review");
    expect(graph.edges).toContainEqual(
      expect.objectContaining({ source: "write", target: "review", conditional: false }),
    );
    const schemas = await client.assistants.getSchemas("review");
    expect(Object.keys((schemas.state_schema as { properties: object }).properties)).toEqual([
      "messages",
      "draft",
      "approved",
    ]);
  });

  it("runs a graph to the end with runs.wait, and reads its state and history", async () => {
    const client = await serve({ graphs: { review: twoStepGraph() } });
    const thread = await client.threads.create({ metadata: { topic: "rates" } });
    const values = await client.runs.wait(thread.thread_id, "review", {
      input: { messages: [{ role: "user", content: "hello" }] },
    });
    expect(values).toMatchObject({ draft: "draft for: hello", approved: true });
    const state = await client.threads.getState(thread.thread_id);
    expect(state.values).toMatchObject({ draft: "draft for: hello" });
    expect(state.next).toEqual([]);
    const history = await client.threads.getHistory(thread.thread_id);
    expect(history.length).toBeGreaterThanOrEqual(3);
    const fetched = await client.threads.get(thread.thread_id);
    expect(fetched.status).toBe("idle");
    expect(fetched.metadata).toMatchObject({ topic: "rates" });
    const runs = await client.runs.list(thread.thread_id);
    expect(runs.map((run) => run.status)).toEqual(["success"]);
  });

  it("streams a run: metadata first, then values and updates, each with an id", async () => {
    const client = await serve({ graphs: { review: twoStepGraph() } });
    const thread = await client.threads.create();
    const parts = await collect(
      client.runs.stream(thread.thread_id, "review", {
        input: { messages: [{ role: "user", content: "hi" }] },
        streamMode: ["values", "updates"],
      }),
    );
    expect(parts[0]?.event).toBe("metadata");
    expect(parts.map((part) => part.event)).toEqual([
      "metadata",
      "updates",
      "values",
      "updates",
      "values",
    ]);
    expect(parts.every((part) => typeof part.id === "string")).toBe(true);
    expect(parts.at(-1)?.data).toMatchObject({ approved: true });
  });

  it("streams an agent's answer token by token as LangGraph message tuples", async () => {
    const llm = new MockChatModel([
      { toolCalls: [mockToolCall("lookup_rate", { pair: "EURUSD" })] },
      "The rate is 1.08 today.",
    ]);
    const client = await serve({ agents: { banker: testAgent(llm) } });
    const thread = await client.threads.create();
    const parts = await collect(
      client.runs.stream(thread.thread_id, "banker", {
        input: { messages: [{ type: "human", content: "EURUSD?" }] },
        streamMode: ["messages-tuple", "values"],
      }),
    );
    const text = parts
      .filter((part) => part.event === "messages")
      .map((part) => (part.data as unknown as [{ type: string; content: string }])[0])
      .filter((chunk) => chunk.type === "AIMessageChunk")
      .map((chunk) => chunk.content)
      .join("");
    expect(text).toBe("The rate is 1.08 today.");
    const final = parts.at(-1)?.data as { messages: { type: string; content: string }[] };
    expect(final.messages.map((m) => m.type)).toEqual(["human", "ai", "tool", "ai"]);
    expect(final.messages.at(-1)?.content).toBe("The rate is 1.08 today.");
  });

  it("streams a reasoning model's thinking in message tuples, joined apart from the answer by the SDK", async () => {
    const llm = new MockChatModel([{ reasoning: "EURUSD is a rate question.", content: "1.08." }]);
    const client = await serve({ agents: { banker: testAgent(llm) } });
    const thread = await client.threads.create();
    const parts = await collect(
      client.runs.stream(thread.thread_id, "banker", {
        input: { messages: [{ type: "human", content: "EURUSD?" }] },
        streamMode: ["messages-tuple"],
      }),
    );
    // What useStream does with message tuples: the SDK's own manager joins the chunks.
    const manager = new MessageTupleManager();
    const ids = new Set<string>();
    for (const part of parts.filter((part) => part.event === "messages")) {
      const [chunk, metadata] = part.data as unknown as Parameters<MessageTupleManager["add"]>;
      const id = manager.add(chunk, metadata);
      if (id) ids.add(id);
    }
    expect(ids.size).toBe(1);
    const joined = manager.get([...ids][0]!)?.chunk;
    expect(joined?.content).toBe("1.08.");
    expect(joined?.additional_kwargs).toEqual({ reasoning_content: "EURUSD is a rate question." });
  });

  it("pauses on a graph's interrupt and resumes with command.resume, once", async () => {
    const runs = new Map<string, number>();
    const client = await serve({ graphs: { review: twoStepGraph({ askForReview: true, runs }) } });
    const thread = await client.threads.create();
    const paused = await client.runs.wait(thread.thread_id, "review", {
      input: { messages: [{ role: "user", content: "q" }] },
    });
    const interrupts = (paused as { __interrupt__: { id: string; value: unknown }[] })
      .__interrupt__;
    expect(interrupts).toHaveLength(1);
    expect(interrupts[0]?.value).toMatchObject({ question: "Approve the draft?" });
    const waiting = await client.threads.get(thread.thread_id);
    expect(waiting.status).toBe("interrupted");
    expect(Object.values(waiting.interrupts).flat()[0]?.id).toBe(interrupts[0]?.id);
    const [first] = await client.runs.list(thread.thread_id);
    expect(first?.status).toBe("interrupted");

    const resumed = await client.runs.wait(thread.thread_id, "review", {
      command: { resume: true },
    });
    expect(resumed).toMatchObject({ approved: true });
    expect(runs.get("write")).toBe(1);

    const again = await client.runs.create(thread.thread_id, "review", {
      command: { resume: true },
    });
    const [latest] = await client.runs.list(thread.thread_id);
    expect(again.run_id).toBe(latest?.run_id);
    await expect(
      client.runs.create(thread.thread_id, "review", { command: { resume: false } }),
    ).rejects.toThrow(/409|no pending interrupt/);
  });

  it("asks before an agent's tool that needs approval, and runs it once approved", async () => {
    const llm = new MockChatModel([
      { toolCalls: [mockToolCall("transfer_funds", { amount: 5, to: "bob" }, "call_1")] },
      { toolCalls: [mockToolCall("transfer_funds", { amount: 5, to: "bob" }, "call_1")] },
      "Sent.",
    ]);
    const client = await serve({ agents: { banker: testAgent(llm) } });
    const thread = await client.threads.create();
    const paused = (await client.runs.wait(thread.thread_id, "banker", {
      input: { messages: [{ role: "user", content: "send bob 5" }] },
    })) as { __interrupt__: { value: { type: string; call: { toolName: string } } }[] };
    expect(paused.__interrupt__[0]?.value).toMatchObject({
      type: "tool-approval",
      call: { toolName: "transfer_funds", arguments: { amount: 5, to: "bob" } },
    });
    const done = (await client.runs.wait(thread.thread_id, "banker", {
      command: { resume: true },
    })) as { messages: { type: string; content: string }[] };
    expect(done.messages.find((m) => m.type === "tool")?.content).toContain("sent 5 to bob");
    expect(done.messages.at(-1)?.content).toBe("Sent.");
  });

  it("refuses a second run on a busy thread, and queues it with enqueue", async () => {
    let release!: () => void;
    const gate = new Promise<void>((resolve) => {
      release = resolve;
    });
    const client = await serve({ graphs: { review: twoStepGraph({ writeGate: () => gate }) } });
    const thread = await client.threads.create();
    const input = { messages: [{ role: "user", content: "one" }] };
    const first = await client.runs.create(thread.thread_id, "review", { input });
    await expect(client.runs.create(thread.thread_id, "review", { input })).rejects.toThrow(/409/);
    const second = await client.runs.create(thread.thread_id, "review", {
      input: { messages: [{ role: "user", content: "two" }] },
      multitaskStrategy: "enqueue",
    });
    expect((await client.runs.get(thread.thread_id, second.run_id)).status).toBe("pending");
    release();
    await client.runs.join(thread.thread_id, first.run_id);
    const values = await client.runs.join(thread.thread_id, second.run_id);
    expect(values).toMatchObject({ draft: "draft for: two" });
  });

  it("rejoins a stream after a given event id and gets exactly the rest", async () => {
    const client = await serve({ graphs: { review: twoStepGraph() } });
    const thread = await client.threads.create();
    const whole = await collect(
      client.runs.stream(thread.thread_id, "review", {
        input: { messages: [{ role: "user", content: "hi" }] },
        streamMode: ["values", "updates"],
      }),
    );
    const [run] = await client.runs.list(thread.thread_id);
    const rest = await collect(
      client.runs.joinStream(thread.thread_id, run!.run_id, { lastEventId: whole[1]!.id! }),
    );
    expect(rest.map((part) => part.id)).toEqual(whole.slice(2).map((part) => part.id));
    expect(rest.map((part) => part.data)).toEqual(whole.slice(2).map((part) => part.data));
  });

  it("forks a thread from an earlier checkpoint", async () => {
    const client = await serve({ graphs: { review: twoStepGraph() } });
    const thread = await client.threads.create();
    await client.runs.wait(thread.thread_id, "review", {
      input: { messages: [{ role: "user", content: "first" }] },
    });
    const history = await client.threads.getHistory(thread.thread_id, { limit: 100 });
    const afterInput = history.at(-1)!;
    const forked = await client.runs.wait(thread.thread_id, "review", {
      input: { messages: [{ role: "user", content: "second" }] },
      checkpointId: afterInput.checkpoint.checkpoint_id!,
    });
    expect((forked as { messages: unknown[] }).messages).toHaveLength(3);
    expect(forked).toMatchObject({ draft: "draft for: second" });
  });

  it("cancels a running run, keeping what it did", async () => {
    const client = await serve({
      graphs: { review: twoStepGraph({ writeGate: () => new Promise(() => {}) }) },
    });
    const thread = await client.threads.create();
    const run = await client.runs.create(thread.thread_id, "review", {
      input: { messages: [{ role: "user", content: "x" }] },
    });
    await expect
      .poll(async () => (await client.runs.get(thread.thread_id, run.run_id)).status)
      .toBe("running");
    await client.runs.cancel(thread.thread_id, run.run_id, true);
    expect((await client.runs.get(thread.thread_id, run.run_id)).status).toBe("interrupted");
    expect((await client.threads.get(thread.thread_id)).status).toBe("idle");
  });

  it("runs without a thread on a temporary one that searches never show and retention removes", async () => {
    const client = await serve({ graphs: { review: twoStepGraph() }, eventRetentionMs: 100 });
    let created: { run_id: string; thread_id?: string } | undefined;
    const values = await client.runs.wait(null, "review", {
      input: { messages: [{ role: "user", content: "once" }] },
      onRunCreated: (run) => {
        created = run;
      },
    });
    expect(values).toMatchObject({ draft: "draft for: once" });
    expect(await client.threads.search()).toEqual([]);
    // The run's values are its success; reading the run back would race the 100 ms retention.
    expect(created).toMatchObject({ run_id: expect.any(String), thread_id: expect.any(String) });
    const threadId = created!.thread_id!;
    await expect
      .poll(() =>
        client.threads.get(threadId).then(
          () => "kept",
          () => "gone",
        ),
      )
      .toBe("gone");
  });

  it("stops the running run for a new one with interrupt, keeping its work", async () => {
    let release!: () => void;
    const gate = new Promise<void>((resolve) => {
      release = resolve;
    });
    let calls = 0;
    const client = await serve({
      graphs: {
        review: twoStepGraph({ writeGate: () => (++calls === 1 ? new Promise(() => {}) : gate) }),
      },
    });
    const thread = await client.threads.create();
    const first = await client.runs.create(thread.thread_id, "review", {
      input: { messages: [{ role: "user", content: "one" }] },
    });
    await expect
      .poll(async () => (await client.runs.get(thread.thread_id, first.run_id)).status)
      .toBe("running");
    const second = await client.runs.create(thread.thread_id, "review", {
      input: { messages: [{ role: "user", content: "two" }] },
      multitaskStrategy: "interrupt",
    });
    expect((await client.runs.get(thread.thread_id, first.run_id)).status).toBe("interrupted");
    release();
    const values = (await client.runs.join(thread.thread_id, second.run_id)) as {
      messages: { content: string }[];
    };
    expect(values.messages.map((m) => m.content)).toEqual(["one", "two", "approved"]);
  });

  it("undoes the running run for a new one with rollback", async () => {
    let calls = 0;
    const client = await serve({
      graphs: {
        review: twoStepGraph({
          writeGate: () => (++calls === 2 ? new Promise(() => {}) : Promise.resolve()),
        }),
      },
    });
    const thread = await client.threads.create();
    await client.runs.wait(thread.thread_id, "review", {
      input: { messages: [{ role: "user", content: "kept" }] },
    });
    const doomed = await client.runs.create(thread.thread_id, "review", {
      input: { messages: [{ role: "user", content: "undone" }] },
    });
    await expect
      .poll(async () => (await client.runs.get(thread.thread_id, doomed.run_id)).status)
      .toBe("running");
    const replacement = await client.runs.create(thread.thread_id, "review", {
      input: { messages: [{ role: "user", content: "instead" }] },
      multitaskStrategy: "rollback",
    });
    await expect(client.runs.get(thread.thread_id, doomed.run_id)).rejects.toThrow(/404/);
    const values = (await client.runs.join(thread.thread_id, replacement.run_id)) as {
      messages: { content: string }[];
    };
    expect(values.messages.map((m) => m.content)).toEqual([
      "kept",
      "approved",
      "instead",
      "approved",
    ]);
    expect((await client.runs.list(thread.thread_id)).map((run) => run.status)).toEqual([
      "success",
      "success",
    ]);
  });

  it("rolls a cancelled run back: the thread stands where it stood before it", async () => {
    let calls = 0;
    const client = await serve({
      graphs: {
        review: twoStepGraph({
          writeGate: () => (++calls === 2 ? new Promise(() => {}) : Promise.resolve()),
        }),
      },
    });
    const thread = await client.threads.create();
    await client.runs.wait(thread.thread_id, "review", {
      input: { messages: [{ role: "user", content: "kept" }] },
    });
    const before = await client.threads.getState(thread.thread_id);
    const doomed = await client.runs.create(thread.thread_id, "review", {
      input: { messages: [{ role: "user", content: "undone" }] },
    });
    await expect
      .poll(async () => (await client.runs.get(thread.thread_id, doomed.run_id)).status)
      .toBe("running");
    await client.runs.cancel(thread.thread_id, doomed.run_id, true, "rollback");
    const after = await client.threads.getState(thread.thread_id);
    expect(after.values).toEqual(before.values);
    expect(after.checkpoint.checkpoint_id).toBe(before.checkpoint.checkpoint_id);
    const next = (await client.runs.wait(thread.thread_id, "review", {
      input: { messages: [{ role: "user", content: "next" }] },
    })) as { messages: { content: string }[] };
    expect(next.messages.map((m) => m.content)).toEqual(["kept", "approved", "next", "approved"]);
  });

  it("rolls an enqueued run back to where the run before it left the thread", async () => {
    let calls = 0;
    let releaseFirst!: () => void;
    const firstGate = new Promise<void>((resolve) => {
      releaseFirst = resolve;
    });
    const client = await serve({
      graphs: {
        review: twoStepGraph({
          writeGate: () => (++calls === 1 ? firstGate : new Promise(() => {})),
        }),
      },
    });
    const thread = await client.threads.create();
    const first = await client.runs.create(thread.thread_id, "review", {
      input: { messages: [{ role: "user", content: "first" }] },
    });
    await expect
      .poll(async () => (await client.runs.get(thread.thread_id, first.run_id)).status)
      .toBe("running");
    // Enqueued while the first run is half done: its rollback must not cut that run short.
    const queued = await client.runs.create(thread.thread_id, "review", {
      input: { messages: [{ role: "user", content: "queued" }] },
      multitaskStrategy: "enqueue",
    });
    releaseFirst();
    await client.runs.join(thread.thread_id, first.run_id);
    await expect
      .poll(async () => (await client.runs.get(thread.thread_id, queued.run_id)).status)
      .toBe("running");
    await client.runs.cancel(thread.thread_id, queued.run_id, true, "rollback");
    const after = await client.threads.getState(thread.thread_id);
    expect(
      (after.values as { messages: { content: string }[] }).messages.map((m) => m.content),
    ).toEqual(["first", "approved"]);
  });

  it("cancels a streamed run whose client goes away when on_disconnect is cancel, and only then", async () => {
    const client = await serve({
      graphs: { review: twoStepGraph({ writeGate: () => new Promise(() => {}) }) },
    });
    const statuses: string[] = [];
    for (const onDisconnect of ["cancel", "continue"] as const) {
      const thread = await client.threads.create();
      const controller = new AbortController();
      let runId = "";
      const parts = client.runs.stream(thread.thread_id, "review", {
        input: { messages: [{ role: "user", content: "x" }] },
        onDisconnect,
        signal: controller.signal,
        onRunCreated: ({ run_id }) => {
          runId = run_id;
        },
      });
      for await (const part of parts) {
        if (part.event === "metadata") break;
      }
      controller.abort();
      if (onDisconnect === "cancel") {
        await expect
          .poll(async () => (await client.runs.get(thread.thread_id, runId)).status, {
            timeout: 30_000,
          })
          .toBe("interrupted");
      } else {
        // Nothing to wait for when nothing should happen: give the server time to notice.
        await new Promise((resolve) => setTimeout(resolve, 300));
      }
      statuses.push((await client.runs.get(thread.thread_id, runId)).status);
    }
    expect(statuses).toEqual(["interrupted", "running"]);
  });
});
