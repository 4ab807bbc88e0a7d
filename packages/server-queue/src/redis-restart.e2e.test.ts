import type { ChildProcess } from "node:child_process";
import { freePort } from "@framework/testing";
import { Redis } from "ioredis";
import { afterAll, describe, expect, it } from "vitest";
import type { ServerWorker } from "./server-worker.js";
import {
  chainWorld,
  dropSchema,
  gateOf,
  servicesMissing,
  startInstance,
  startRedis,
  startWorker,
  stopRedis,
  type TestInstance,
  testConnection,
} from "./test-queue.js";

let redis: ChildProcess | undefined;
const schemas: string[] = [];
const closing: (TestInstance | ServerWorker)[] = [];
afterAll(async () => {
  for (const opened of closing.reverse()) {
    await ("server" in opened ? opened.server.close() : opened.close());
  }
  if (redis) await stopRedis(redis);
  for (const schema of schemas) await dropSchema(schema);
});

describe.skipIf(servicesMissing)("a Redis restarted without persistence", () => {
  it("loses no run: one whose wake-up it lost, one executing, and one created after", async () => {
    const port = await freePort();
    redis = await startRedis(port);
    const connection = { ...testConnection("redis"), redis: `redis://127.0.0.1:${port}` };
    schemas.push(connection.schema);
    const world = chainWorld();
    const instance = await startInstance(connection, "A", world);
    closing.push(instance);
    const { client } = instance;

    // No worker yet: the run's wake-up waits in Redis, and goes with it.
    const unwoken = await client.threads.create();
    const lost = await client.runs.create(unwoken.thread_id, "chain", { input: { label: "1" } });
    const keys = new Redis({ port, host: "127.0.0.1" });
    await expect
      .poll(() => keys.keys(`bull:${connection.queueName}:*`).then((found) => found.length))
      .toBeGreaterThan(0);
    keys.disconnect();
    await stopRedis(redis);
    redis = await startRedis(port);

    const worker = await startWorker(connection, "W1", world, { recoveryIntervalMs: 200 });
    closing.push(worker);
    await client.runs.join(unwoken.thread_id, lost.run_id);
    expect((await client.runs.get(unwoken.thread_id, lost.run_id)).status).toBe("success");

    // Redis goes while a run executes.
    const busy = await client.threads.create();
    const executing = await client.runs.create(busy.thread_id, "chain", {
      input: { hold: "2", label: "2" },
    });
    await expect.poll(() => world.ran.includes("W1:b:2")).toBe(true);
    await stopRedis(redis);
    redis = await startRedis(port);
    gateOf(world, "2").open();
    await client.runs.join(busy.thread_id, executing.run_id);
    expect((await client.runs.get(busy.thread_id, executing.run_id)).status).toBe("success");

    // The instance and the worker reconnected: a new run goes through the new Redis.
    const after = await client.threads.create();
    const values = await client.runs.wait(after.thread_id, "chain", { input: { label: "3" } });
    expect(values).toMatchObject({ trail: ["a3@W1", "b3@W1", "c3@W1"] });
  });
});
