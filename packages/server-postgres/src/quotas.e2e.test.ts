import { describe, expect, it } from "vitest";
import { testInstances } from "./test-instances.js";
import { postgresUrl } from "./test-postgres.js";

const instances = testInstances();

describe.skipIf(postgresUrl === undefined)("run quotas across instances", () => {
  it("counts a user's runs on every instance: a run held on A makes B answer 429", async () => {
    const quotas = { maxActiveRunsPerUser: 1, retryAfterSeconds: 3 };
    const { world, b, clientA } = await instances.two("quotas", { quotas });
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
