import { ConfigurationError } from "@framework/core";
import { createServer } from "@framework/server";
import { describe, expect, it } from "vitest";
import { serverQueue } from "./server-queue.js";
import {
  type ChainWorld,
  chainWorld,
  gateOf,
  servicesMissing,
  startInstance,
  startWorker,
  testConnection,
  testDeployments,
} from "./test-queue.js";

const deployments = testDeployments();

/** Two submitting instances and `workers` in-process workers over a fresh schema and queue. */
async function deployment(label: string, workers: { concurrency?: number }[] = [{}]) {
  const connection = deployments.connection(label);
  const world: ChainWorld = chainWorld();
  const a = await startInstance(connection, "A", world);
  deployments.keep(a);
  const b = await startInstance(connection, "B", world);
  deployments.keep(b);
  for (const [index, options] of workers.entries()) {
    deployments.keep(await startWorker(connection, `W${index + 1}`, world, options));
  }
  return { connection, world, a, b };
}

type StreamPart = { id?: string; event: string; data: unknown };

async function readAll(stream: AsyncIterable<StreamPart>): Promise<StreamPart[]> {
  const parts: StreamPart[] = [];
  for await (const part of stream) parts.push(part);
  return parts;
}

describe.skipIf(servicesMissing)("runs executed by queue workers", () => {
  it("executes on a worker a run submitted on one instance and streamed from another", async () => {
    const { world, a, b } = await deployment("stream");
    const thread = await a.client.threads.create();
    const run = await a.client.runs.create(thread.thread_id, "chain", {
      input: { hold: "1", label: "1" },
      streamMode: ["updates", "values"],
    });
    const followed = readAll(b.client.runs.joinStream(thread.thread_id, run.run_id));
    await expect.poll(() => world.ran.includes("W1:b:1")).toBe(true);
    gateOf(world, "1").open();
    const parts = await followed;
    const whole = await readAll(a.client.runs.joinStream(thread.thread_id, run.run_id));
    expect(parts.map((part) => part.id)).toEqual(whole.map((part) => part.id));
    expect(
      parts
        .filter((part) => part.event === "updates")
        .map((part) => Object.keys(part.data as object)[0]),
    ).toEqual(["a", "b", "c"]);
    // Only the worker executed; the instances only submitted and served.
    expect(world.ran).toEqual(["W1:a:1", "W1:b:1", "W1:c:1"]);
    expect((await b.client.runs.get(thread.thread_id, run.run_id)).status).toBe("success");
  });

  it("parks an interrupted run, frees its worker for another thread, and resumes it from another instance", async () => {
    const { world, a, b } = await deployment("interrupt", [{ concurrency: 1 }]);
    const asking = await a.client.threads.create();
    const first = await a.client.runs.wait(asking.thread_id, "chain", {
      input: { ask: true, label: "1" },
    });
    expect(first).toMatchObject({ trail: ["a1@W1"] });
    const [parked] = await a.client.runs.list(asking.thread_id);
    expect(parked?.status).toBe("interrupted");
    expect((await b.client.threads.getState(asking.thread_id)).tasks[0]?.interrupts).toHaveLength(
      1,
    );

    // With one slot, another thread's run executes while the first waits for its answer.
    const other = await a.client.threads.create();
    const values = await b.client.runs.wait(other.thread_id, "chain", { input: { label: "2" } });
    expect(values).toMatchObject({ trail: ["a2@W1", "b2@W1", "c2@W1"] });

    const resumed = await b.client.runs.wait(asking.thread_id, "chain", {
      command: { resume: "yes" },
    });
    expect(resumed).toMatchObject({ trail: ["a1@W1", "b1yes@W1", "c1@W1"] });
    expect(world.ran.filter((entry) => entry.endsWith(":1"))).toEqual([
      "W1:a:1",
      "W1:b:1",
      "W1:b:1",
      "W1:c:1",
    ]);
  });

  it("hands a closing worker's runs to another at once, without waiting for a sweep", async () => {
    const { connection, world, a } = await deployment("handover", []);
    const sweepless = { recoveryIntervalMs: 600_000 };
    const closing = await startWorker(connection, "W1", world, sweepless);
    const thread = await a.client.threads.create();
    const run = await a.client.runs.create(thread.thread_id, "chain", {
      input: { hold: "1", label: "1" },
    });
    await expect.poll(() => world.ran.includes("W1:b:1")).toBe(true);
    const other = await startWorker(connection, "W2", world, sweepless);
    deployments.keep(other);
    await closing.close();
    await expect.poll(() => world.ran.includes("W2:b:1")).toBe(true);
    gateOf(world, "1").open();
    await a.client.runs.join(thread.thread_id, run.run_id);
    expect((await a.client.runs.get(thread.thread_id, run.run_id)).status).toBe("success");
    expect(world.ran).toEqual(["W1:a:1", "W1:b:1", "W2:b:1", "W2:c:1"]);
  });

  it("refuses a store or checkpointer beside a queue, which brings its own", async () => {
    const queue = serverQueue(testConnection("refused"));
    try {
      const refused = (() => {
        try {
          createServer({ queue, checkpointer: queue.checkpointer });
        } catch (error) {
          return error;
        }
      })();
      expect(ConfigurationError.isInstance(refused)).toBe(true);
      expect(refused).toMatchObject({ setting: "queue" });
    } finally {
      await queue.close();
    }
  });
});
