import { rmSync } from "node:fs";
import { Client } from "@langchain/langgraph-sdk";
import { describe, expect, it } from "vitest";
import { startTestServer, twoStepGraph } from "./test-server.js";

const input = { messages: [{ role: "user", content: "hello" }] };

describe("closing the server", () => {
  it("ends open streams with a retry hint and leaves a stopped run to resume on the next start", async () => {
    const first = await startTestServer({
      graphs: { review: twoStepGraph({ writeGate: () => new Promise(() => {}) }) },
    });
    const client = new Client({ apiUrl: first.url });
    const thread = await client.threads.create();
    const run = await client.runs.create(thread.thread_id, "review", { input });
    const stream = await fetch(
      `${first.url}/threads/${thread.thread_id}/runs/${run.run_id}/stream`,
    );
    await expect
      .poll(async () => (await client.runs.get(thread.thread_id, run.run_id)).status)
      .toBe("running");

    await first.server.close();
    const text = await stream.text();
    expect(text).toContain("event: metadata");
    expect(text.trimEnd().endsWith("retry: 1000")).toBe(true);

    const second = await startTestServer({ graphs: { review: twoStepGraph() } }, first.directory);
    try {
      const again = new Client({ apiUrl: second.url });
      const values = await again.runs.join(thread.thread_id, run.run_id);
      expect(values).toMatchObject({ draft: "draft for: hello", approved: true });
      expect((await again.runs.get(thread.thread_id, run.run_id)).status).toBe("success");
    } finally {
      await second.close();
      rmSync(first.directory, { recursive: true, force: true });
    }
  });

  it("drains: a node ending within the grace is checkpointed, the next does not start, and the next server goes on from there", async () => {
    let release!: () => void;
    const gate = new Promise<void>((resolve) => {
      release = resolve;
    });
    const before = new Map<string, number>();
    const server = await startTestServer({
      graphs: { review: twoStepGraph({ writeGate: () => gate, runs: before }) },
      shutdownGraceMs: 30_000,
    });
    const client = new Client({ apiUrl: server.url });
    const thread = await client.threads.create();
    const run = await client.runs.create(thread.thread_id, "review", { input });
    await expect
      .poll(async () => (await client.runs.get(thread.thread_id, run.run_id)).status)
      .toBe("running");
    const closed = server.server.close();
    release();
    await closed;
    expect(Object.fromEntries(before)).toEqual({ write: 1 });

    const after = new Map<string, number>();
    const reopened = await startTestServer(
      { graphs: { review: twoStepGraph({ runs: after }) } },
      server.directory,
    );
    try {
      const again = new Client({ apiUrl: reopened.url });
      const values = await again.runs.join(thread.thread_id, run.run_id);
      expect(values).toMatchObject({ draft: "draft for: hello", approved: true });
      expect((await again.runs.get(thread.thread_id, run.run_id)).status).toBe("success");
      // write's end was checkpointed before the shutdown: only review ran here.
      expect(Object.fromEntries(after)).toEqual({ review: 1 });
    } finally {
      await reopened.close();
    }
  });
});
