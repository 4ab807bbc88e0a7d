import { Queue } from "bullmq";
import { describe, expect, it } from "vitest";
import { cronQueueName, type ServerQueueConnection } from "./server-queue-connection.js";
import {
  chainWorld,
  loseQueueKeys,
  redisUrl,
  servicesMissing,
  sql,
  startInstance,
  type TestInstance,
  testDeployments,
} from "./test-queue.js";

const deployments = testDeployments();

/**
 * A fresh schema and queue, with a BullMQ handle on their cron queue; `start` starts an
 * instance over them (with `options` on its connection), closed after the test.
 */
function deployment(label: string) {
  const connection = deployments.connection(label);
  const cronJobs = new Queue(cronQueueName(connection.queueName), {
    connection: { url: redisUrl! },
  });
  deployments.keep(cronJobs);
  const world = chainWorld();
  const start = async (name: string, options: Partial<ServerQueueConnection> = {}) =>
    deployments.keep(await startInstance({ ...connection, ...options }, name, world));
  return { connection, cronJobs, start };
}

/** How many runs each tick of the cron created, by tick. */
async function runsByTick(schema: string, cronId: string): Promise<Map<string, number>> {
  const { rows } = await sql<{ tick: string; runs: number }>(
    `SELECT metadata::jsonb->>'cron_run_date' AS tick, count(*)::int AS runs
       FROM "${schema}".server_runs
      WHERE metadata::jsonb->>'cron_id' = $1
      GROUP BY 1`,
    [cronId],
  );
  return new Map(rows.map((row) => [row.tick, row.runs]));
}

const everySecond = "* * * * * *";

/** A cron created on `instance` that fires every second, keeping its runs to be counted. */
const tickEverySecond = (instance: TestInstance) =>
  instance.client.crons.create("chain", {
    schedule: everySecond,
    input: { label: "tick" },
    onRunCompleted: "keep",
  });

/** Polls give up after this long (the machine may be busy); each ends once what it waits for holds. */
const patiently = { timeout: 30_000 };

describe.skipIf(servicesMissing)("crons through the queue's job schedulers", () => {
  it("fires each tick of an every-second cron once across two instances", async () => {
    const { connection, cronJobs, start } = deployment("cron_ticks");
    const a = await start("A");
    const b = await start("B");
    const cron = await tickEverySecond(a);
    expect(await cronJobs.getJobScheduler(cron.cron_id)).toMatchObject({
      key: cron.cron_id,
      pattern: everySecond,
      tz: "UTC",
    });
    await expect
      .poll(async () => (await runsByTick(connection.schema, cron.cron_id)).size, patiently)
      .toBeGreaterThanOrEqual(3);
    const ticks = await runsByTick(connection.schema, cron.cron_id);
    expect([...ticks.values()].every((runs) => runs === 1)).toBe(true);
    await b.client.crons.delete(cron.cron_id);
    expect(await cronJobs.getJobScheduler(cron.cron_id)).toBeUndefined();
    // No tick is left to come: neither a scheduler nor a job waiting to fire.
    await expect
      .poll(
        () => cronJobs.getJobCountByTypes("delayed", "wait", "prioritized", "active"),
        patiently,
      )
      .toBe(0);
  });

  it("gives crons their schedules back on start after Redis lost them", async () => {
    const { connection, cronJobs, start } = deployment("cron_restore");
    const a = await start("A");
    const cron = await tickEverySecond(a);
    await a.server.close();
    expect(await loseQueueKeys(cronQueueName(connection.queueName))).toBeGreaterThan(0);
    expect(await cronJobs.getJobScheduler(cron.cron_id)).toBeUndefined();
    const fired = (await runsByTick(connection.schema, cron.cron_id)).size;
    await start("B");
    await expect
      .poll(() => cronJobs.getJobScheduler(cron.cron_id), patiently)
      .toMatchObject({ key: cron.cron_id, pattern: everySecond });
    await expect
      .poll(async () => (await runsByTick(connection.schema, cron.cron_id)).size, patiently)
      .toBeGreaterThan(fired + 1);
  });

  it("gives crons their schedules back while instances run, after Redis lost them", async () => {
    const { connection, cronJobs, start } = deployment("cron_rerun");
    const a = await start("A", { cronReconcileIntervalMs: 300 });
    const cron = await tickEverySecond(a);
    await loseQueueKeys(cronQueueName(connection.queueName));
    await expect
      .poll(() => cronJobs.getJobScheduler(cron.cron_id), patiently)
      .toMatchObject({ key: cron.cron_id, pattern: everySecond });
    const fired = (await runsByTick(connection.schema, cron.cron_id)).size;
    await expect
      .poll(async () => (await runsByTick(connection.schema, cron.cron_id)).size, patiently)
      .toBeGreaterThan(fired + 1);
  });

  it("fires once on start a tick that came due while no instance ran", async () => {
    const { connection, start } = deployment("cron_missed");
    const a = await start("A");
    const cron = await a.client.crons.create("chain", {
      schedule: "0 0 1 1 *",
      input: { label: "yearly" },
      onRunCompleted: "keep",
    });
    await a.server.close();
    // The new year came and went while every instance was down.
    const missed = new Date(Date.now() - 60 * 60 * 1000).toISOString();
    await sql(`UPDATE "${connection.schema}".server_crons SET next_run_date = $1`, [missed]);
    await start("B");
    await expect
      .poll(() => runsByTick(connection.schema, cron.cron_id), patiently)
      .toEqual(new Map([[missed, 1]]));
    const { rows } = await sql<{ next_run_date: Date }>(
      `SELECT next_run_date FROM "${connection.schema}".server_crons`,
    );
    expect(rows[0]!.next_run_date.getTime()).toBeGreaterThan(Date.now());
  });

  it("removes on start the schedulers of crons deleted behind their back", async () => {
    const { cronJobs, start } = deployment("cron_gone");
    const a = await start("A");
    const thread = await a.client.threads.create();
    const cron = await a.client.crons.createForThread(thread.thread_id, "chain", {
      schedule: "0 0 1 1 *",
      input: { label: "yearly" },
    });
    expect(await cronJobs.getJobScheduler(cron.cron_id)).toBeDefined();
    // Deleting the thread deletes its crons, without a word to the scheduler.
    await a.client.threads.delete(thread.thread_id);
    expect(await cronJobs.getJobScheduler(cron.cron_id)).toBeDefined();
    await start("B");
    await expect.poll(() => cronJobs.getJobScheduler(cron.cron_id), patiently).toBeUndefined();
  });
});
