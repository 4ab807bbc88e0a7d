import { Client } from "@langchain/langgraph-sdk";
import { afterAll, afterEach, describe, expect, it } from "vitest";
import { type ChainWorld, Gate, startInstance, type TestInstance } from "./test-instances.js";
import { dropSchema, postgresUrl, uniqueSchema } from "./test-postgres.js";

const started: TestInstance[] = [];
const schemas: string[] = [];

afterEach(async () => {
  for (const instance of started.splice(0)) await instance.close();
});
afterAll(async () => {
  for (const schema of schemas) await dropSchema(schema);
});

describe.skipIf(postgresUrl === undefined)("run quotas across instances", () => {
  it("counts a user's runs on every instance: a run held on A makes B answer 429", async () => {
    const schema = uniqueSchema("quotas");
    schemas.push(schema);
    const world: ChainWorld = { gate: new Gate(), ran: [] };
    const quotas = { maxActiveRunsPerUser: 1, retryAfterSeconds: 3 };
    const a = await startInstance(schema, "A", world, { quotas });
    started.push(a);
    const b = await startInstance(schema, "B", world, { quotas });
    started.push(b);
    const clientA = new Client({ apiUrl: a.url });
    const [threadA, threadB] = [await clientA.threads.create(), await clientA.threads.create()];
    const held = await clientA.runs.create(threadA.thread_id, "chain", {
      input: { hold: true, label: "1" },
    });
    await expect.poll(() => world.ran.includes("A:b:1")).toBe(true);
    const create = () =>
      fetch(`${b.url}/threads/${threadB.thread_id}/runs`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ assistant_id: "chain", input: { label: "2" } }),
      });
    const refused = await create();
    expect(refused.status).toBe(429);
    expect(refused.headers.get("retry-after")).toBe("3");
    expect(await refused.json()).toMatchObject({ error: { type: "RunQuotaExceededError" } });
    world.gate.open();
    await clientA.runs.join(threadA.thread_id, held.run_id);
    const accepted = await create();
    expect(accepted.status).toBe(200);
  });
});
