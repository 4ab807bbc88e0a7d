import { describe, expect, it } from "vitest";
import {
  type ChainWorld,
  chainWorld,
  gateOf,
  servicesMissing,
  startInstance,
  startWorker,
  testDeployments,
} from "./test-queue.js";

const deployments = testDeployments();

/** Two instances and two workers over a fresh schema and queue. */
async function deployment() {
  const connection = deployments.connection("multitask");
  const world: ChainWorld = chainWorld();
  const a = await startInstance(connection, "A", world);
  const b = await startInstance(connection, "B", world);
  const w1 = await startWorker(connection, "W1", world);
  const w2 = await startWorker(connection, "W2", world);
  for (const opened of [a, b, w1, w2]) deployments.keep(opened);
  return { world, a, b };
}

/** A thread with a run created on A, executing on a worker and holding at `b`. */
async function busyThread() {
  const { world, a, b } = await deployment();
  const thread = await a.client.threads.create();
  const first = await a.client.runs.create(thread.thread_id, "chain", {
    input: { hold: "1", label: "1" },
  });
  await expect.poll(() => world.ran.some((entry) => entry.endsWith(":b:1"))).toBe(true);
  return { world, a, b, threadId: thread.thread_id, first };
}

/** The node runs' `node:label`, in the order they ran, whichever worker ran them. */
function labelsOf(world: ChainWorld): string[] {
  return world.ran.map((entry) => entry.split(":").slice(1).join(":"));
}

describe.skipIf(servicesMissing)("multitask strategies with runs on workers", () => {
  it("reject: of runs raced on two instances onto an idle thread, exactly one gets it", async () => {
    const { world, a, b } = await deployment();
    const thread = await a.client.threads.create();
    const results = await Promise.allSettled(
      Array.from({ length: 6 }, (_, index) =>
        (index % 2 === 0 ? a : b).client.runs.create(thread.thread_id, "chain", {
          input: { hold: "1", label: String(index) },
          multitaskStrategy: "reject",
        }),
      ),
    );
    const accepted = results.filter((result) => result.status === "fulfilled");
    expect(accepted).toHaveLength(1);
    for (const result of results) {
      if (result.status === "rejected") expect(String(result.reason)).toMatch(/409/);
    }
    gateOf(world, "1").open();
    const run = (accepted[0] as PromiseFulfilledResult<{ run_id: string }>).value;
    await b.client.runs.join(thread.thread_id, run.run_id);
    expect((await a.client.runs.list(thread.thread_id)).map((r) => r.status)).toEqual(["success"]);
  });

  it("enqueue: runs queued on either instance run after the active one, in order", async () => {
    const { world, a, b, threadId, first } = await busyThread();
    const second = await b.client.runs.create(threadId, "chain", {
      input: { label: "2" },
      multitaskStrategy: "enqueue",
    });
    const third = await a.client.runs.create(threadId, "chain", {
      input: { label: "3" },
      multitaskStrategy: "enqueue",
    });
    expect((await a.client.runs.get(threadId, second.run_id)).status).toBe("pending");
    gateOf(world, "1").open();
    await b.client.runs.join(threadId, third.run_id);
    for (const run of [first, second, third]) {
      expect((await b.client.runs.get(threadId, run.run_id)).status).toBe("success");
    }
    expect(labelsOf(world)).toEqual([
      "a:1",
      "b:1",
      "c:1",
      "a:2",
      "b:2",
      "c:2",
      "a:3",
      "b:3",
      "c:3",
    ]);
  });

  it("interrupt: a run created on B stops the run executing on a worker, keeping what it did", async () => {
    const { world, a, b, threadId, first } = await busyThread();
    const values = (await b.client.runs.wait(threadId, "chain", {
      // The thread keeps the first run's `hold`: this one does not wait.
      input: { hold: "", label: "2" },
      multitaskStrategy: "interrupt",
    })) as { trail: string[] };
    expect((await a.client.runs.get(threadId, first.run_id)).status).toBe("interrupted");
    expect(values.trail[0]).toMatch(/^a1@W/);
    expect(values.trail.at(-1)).toMatch(/^c2@W/);
    expect(labelsOf(world)).not.toContain("c:1");
  });

  it("rollback: a run created on B deletes the run executing on a worker and undoes it", async () => {
    const { world, a, b, threadId, first } = await busyThread();
    const values = (await b.client.runs.wait(threadId, "chain", {
      input: { label: "2" },
      multitaskStrategy: "rollback",
    })) as { trail: string[] };
    await expect(a.client.runs.get(threadId, first.run_id)).rejects.toThrow(/404/);
    expect(values.trail.map((entry) => entry.split("@")[0])).toEqual(["a2", "b2", "c2"]);
    expect(labelsOf(world)).not.toContain("c:1");
  });
});
