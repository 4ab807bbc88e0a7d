import { Client, type Run } from "@langchain/langgraph-sdk";
import { describe, expect, it, vi } from "vitest";
import { type ChainWorld, chainWorld, testInstances } from "./test-instances.js";
import { postgresUrl } from "./test-postgres.js";

const instances = testInstances();

/** Instances that look at the shared crons every 100 ms, so a test hears of changes soon. */
async function instance(schema: string, name: string, world: ChainWorld) {
  const running = await instances.start(schema, name, world, { cronPollIntervalMs: 100 });
  return { running, client: new Client({ apiUrl: running.url }) };
}

/** Instances A and B over a fresh schema, and a cron on a thread firing every second. */
async function tickingPair() {
  const schema = instances.schema("crons");
  const world = chainWorld();
  const a = await instance(schema, "A", world);
  const b = await instance(schema, "B", world);
  const thread = await a.client.threads.create();
  const cron = await a.client.crons.createForThread(thread.thread_id, "chain", {
    schedule: "* * * * * *",
    input: { label: "tick" },
    multitaskStrategy: "enqueue",
  });
  return { schema, world, a, b, thread, cron };
}

/** Waits for `check` to pass; the guard is for a hang, not a measure of speed. */
const eventually = <T>(check: () => Promise<T>) =>
  vi.waitFor(check, { timeout: 60_000, interval: 50 });

const tickOf = (run: Run) => run.metadata?.cron_run_date as string;

/** Waits until the thread has at least `count` runs made by the cron, and answers them. */
async function cronRuns(client: Client, threadId: string, cronId: string, count: number) {
  return eventually(async () => {
    const runs = (await client.runs.list(threadId, { limit: 1000 })).filter(
      (run) => run.metadata?.cron_id === cronId,
    );
    expect(runs.length).toBeGreaterThanOrEqual(count);
    return runs;
  });
}

describe.skipIf(postgresUrl === undefined)("crons on server instances sharing one Postgres", () => {
  it("fires each tick once across two instances, both looking at the same cron", async () => {
    const { a, b, thread, cron } = await tickingPair();
    // B learns of the cron from the store, not from A.
    await eventually(async () =>
      expect((await b.client.crons.search()).map((other) => other.cron_id)).toEqual([cron.cron_id]),
    );
    await cronRuns(b.client, thread.thread_id, cron.cron_id, 6);
    await b.client.crons.update(cron.cron_id, { enabled: false });
    const runs = await cronRuns(a.client, thread.thread_id, cron.cron_id, 6);
    const ticks = runs.map(tickOf);
    expect(new Set(ticks).size, `ticks: ${ticks.join(", ")}`).toBe(ticks.length);
  });

  it("keeps a schedule when every instance stops: another instance, or one started later, fires it", async () => {
    const { schema, world, a, b, thread, cron } = await tickingPair();
    await a.running.close();
    const seen = (await cronRuns(b.client, thread.thread_id, cron.cron_id, 1)).length;
    await cronRuns(b.client, thread.thread_id, cron.cron_id, seen + 2);
    await b.running.close();

    const c = await instance(schema, "C", world);
    const before = (await c.client.runs.list(thread.thread_id, { limit: 1000 })).length;
    const runs = await cronRuns(c.client, thread.thread_id, cron.cron_id, before + 2);
    await c.client.crons.delete(cron.cron_id);
    const ticks = runs.map(tickOf);
    expect(new Set(ticks).size, `ticks: ${ticks.join(", ")}`).toBe(ticks.length);
    expect(world.ran.some((entry) => entry.startsWith("C:"))).toBe(true);
  });
});
