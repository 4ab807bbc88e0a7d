import { describe, expect, it } from "vitest";
import { type ChainWorld, testInstances } from "./test-instances.js";
import { postgresUrl } from "./test-postgres.js";

const instances = testInstances();

/** Two instances over a fresh schema, and a thread with a run holding at `b`, made on A. */
async function busyThread() {
  const { world, clientA, clientB } = await instances.two("multitask");
  const thread = await clientA.threads.create();
  const first = await clientA.runs.create(thread.thread_id, "chain", {
    input: { hold: true, label: "1" },
  });
  // `a` is checkpointed and `b` holds: the run is executing on A.
  await expect.poll(() => world.ran.includes("A:b:1")).toBe(true);
  return { world, clientA, clientB, threadId: thread.thread_id, first };
}

/** The labels of the node runs, in the order they ran, whichever instance ran them. */
function labelsOf(world: ChainWorld): string[] {
  return world.ran.map((entry) => entry.split(":").slice(1).join(":"));
}

describe.skipIf(postgresUrl === undefined)("multitask strategies across instances", () => {
  it("reject: of runs raced on two instances onto an idle thread, exactly one gets it", async () => {
    const { world, clientA, clientB } = await instances.two("multitask");
    const clients = [clientA, clientB];
    const thread = await clients[0]!.threads.create();
    const results = await Promise.allSettled(
      Array.from({ length: 8 }, (_, index) =>
        clients[index % 2]!.runs.create(thread.thread_id, "chain", {
          input: { hold: true, label: String(index) },
          multitaskStrategy: "reject",
        }),
      ),
    );
    const accepted = results.filter((result) => result.status === "fulfilled");
    expect(accepted).toHaveLength(1);
    for (const result of results) {
      if (result.status === "rejected") expect(String(result.reason)).toMatch(/409/);
    }
    world.gate.open();
    const run = (accepted[0] as PromiseFulfilledResult<{ run_id: string }>).value;
    await clients[1]!.runs.join(thread.thread_id, run.run_id);
    expect((await clients[0]!.runs.list(thread.thread_id)).map((r) => r.status)).toEqual([
      "success",
    ]);
  });

  it("enqueue: runs queued on either instance run after the active one, in order, one at a time", async () => {
    const { world, clientA, clientB, threadId, first } = await busyThread();
    const second = await clientB.runs.create(threadId, "chain", {
      input: { hold: false, label: "2" },
      multitaskStrategy: "enqueue",
    });
    const third = await clientA.runs.create(threadId, "chain", {
      input: { hold: false, label: "3" },
      multitaskStrategy: "enqueue",
    });
    expect((await clientA.runs.get(threadId, second.run_id)).status).toBe("pending");
    world.gate.open();
    await clientB.runs.join(threadId, third.run_id);
    for (const run of [first, second, third]) {
      expect((await clientB.runs.get(threadId, run.run_id)).status).toBe("success");
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

  it("interrupt: a run created on B stops the run executing on A, keeping what it did, then runs", async () => {
    const { world, clientA, clientB, threadId, first } = await busyThread();
    const values = (await clientB.runs.wait(threadId, "chain", {
      input: { hold: false, label: "2" },
      multitaskStrategy: "interrupt",
    })) as { trail: string[] };
    expect((await clientA.runs.get(threadId, first.run_id)).status).toBe("interrupted");
    expect(values.trail[0]).toBe("a1");
    expect(values.trail.at(-1)).toBe("c2");
    expect(labelsOf(world)).not.toContain("c:1");
  });

  it("rollback: a run created on B deletes the run executing on A and undoes what it did", async () => {
    const { world, clientA, clientB, threadId, first } = await busyThread();
    const values = (await clientB.runs.wait(threadId, "chain", {
      input: { hold: false, label: "2" },
      multitaskStrategy: "rollback",
    })) as { trail: string[] };
    await expect(clientA.runs.get(threadId, first.run_id)).rejects.toThrow(/404/);
    expect(values.trail).toEqual(["a2", "b2", "c2"]);
    expect(labelsOf(world)).not.toContain("c:1");
  });
});
