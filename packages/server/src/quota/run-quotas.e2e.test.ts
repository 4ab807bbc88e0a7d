import { Client } from "@langchain/langgraph-sdk";
import { afterEach, describe, expect, it } from "vitest";
import { apiKeyAuth } from "../auth/api-key-auth.js";
import type { ServerOptions } from "../create-server.js";
import { startTestServer, type TestServer, twoStepGraph } from "../test-server.js";

const keys = {
  "quota-test-key-alice-3c9e1b7d5a2f": "alice",
  "quota-test-key-bob-6f0a2d8c4e1b": "bob",
} as const;
const hello = { messages: [{ role: "user", content: "hello" }] };

let running: TestServer | undefined;
afterEach(async () => {
  await running?.close();
  running = undefined;
});

/** A server whose `held` graph waits in `write` until {@link release}. */
async function serve(quotas: ServerOptions["quotas"]) {
  const gates: (() => void)[] = [];
  running = await startTestServer({
    graphs: {
      held: twoStepGraph({ writeGate: () => new Promise<void>((open) => gates.push(open)) }),
    },
    auth: apiKeyAuth({ keys }),
    quotas,
  });
  const url = running.url;
  const clientOf = (key: keyof typeof keys) =>
    new Client({ apiUrl: url, defaultHeaders: { "x-api-key": key } });
  return {
    alice: clientOf("quota-test-key-alice-3c9e1b7d5a2f"),
    bob: clientOf("quota-test-key-bob-6f0a2d8c4e1b"),
    /** Creates one of alice's runs with fetch, to read the answer's status and headers. */
    create: (threadId: string, multitaskStrategy = "reject") =>
      fetch(`${url}/threads/${threadId}/runs`, {
        method: "POST",
        headers: {
          "content-type": "application/json",
          "x-api-key": "quota-test-key-alice-3c9e1b7d5a2f",
        },
        body: JSON.stringify({
          assistant_id: "held",
          input: hello,
          multitask_strategy: multitaskStrategy,
        }),
      }),
    release: () => {
      for (const open of gates.splice(0)) open();
    },
  };
}

async function runningRun(client: Client, threadId: string) {
  const run = await client.runs.create(threadId, "held", { input: hello });
  await expect
    .poll(async () => (await client.runs.get(threadId, run.run_id)).status)
    .toBe("running");
  return run;
}

describe("per-user run quotas", () => {
  it("answers 429 with Retry-After once a user has maxActiveRunsPerUser active runs, not other users", async () => {
    const { alice, bob, create, release } = await serve({
      maxActiveRunsPerUser: 2,
      retryAfterSeconds: 7,
    });
    const threads = await Promise.all([1, 2, 3].map(() => alice.threads.create()));
    await runningRun(alice, threads[0]!.thread_id);
    await runningRun(alice, threads[1]!.thread_id);
    const refused = await create(threads[2]!.thread_id);
    expect(refused.status).toBe(429);
    expect(refused.headers.get("retry-after")).toBe("7");
    expect(await refused.json()).toEqual({
      error: {
        type: "RunQuotaExceededError",
        message: "Too many active (pending or running) runs: 2 of at most 2; try again in 7 s",
      },
    });
    await expect(
      alice.runs.create(threads[2]!.thread_id, "held", { input: hello }),
    ).rejects.toThrow(/HTTP 429/);
    // Nothing was stored for the refused runs.
    expect(await alice.runs.list(threads[2]!.thread_id)).toEqual([]);
    const bobs = await bob.threads.create();
    await runningRun(bob, bobs.thread_id);
    release();
    for (const thread of threads.slice(0, 2)) {
      await expect
        .poll(async () => (await alice.runs.list(thread.thread_id))[0]?.status)
        .toBe("success");
    }
    expect((await create(threads[2]!.thread_id)).status).toBe(200);
  });

  it("answers 429 once a user has maxPendingRunsPerUser runs waiting to start", async () => {
    const { alice, create, release } = await serve({ maxPendingRunsPerUser: 1 });
    const thread = await alice.threads.create();
    await runningRun(alice, thread.thread_id);
    expect((await create(thread.thread_id, "enqueue")).status).toBe(200);
    const refused = await create(thread.thread_id, "enqueue");
    expect(refused.status).toBe(429);
    expect(refused.headers.get("retry-after")).toBe("5");
    expect(await refused.json()).toMatchObject({
      error: { type: "RunQuotaExceededError", message: expect.stringContaining("pending") },
    });
    release();
    await expect
      .poll(async () => (await alice.runs.list(thread.thread_id)).map((run) => run.status))
      .toEqual(["running", "success"]);
    expect((await create(thread.thread_id, "enqueue")).status).toBe(200);
  });
});
