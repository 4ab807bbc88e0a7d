import { createServer as createHttpServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { testInstances } from "./test-instances.js";
import { postgresUrl } from "./test-postgres.js";

let receiver: Server | undefined;
afterEach(async () => {
  await new Promise((resolve) => (receiver ? receiver.close(resolve) : resolve(undefined)));
  receiver = undefined;
});
// Registered after the receiver's hook, so (hooks after a test run last first) the instances
// close before the receiver does.
const instances = testInstances();

describe.skipIf(postgresUrl === undefined)("run webhooks across instances", () => {
  it("posts once per run, from the instance that ended it, whichever instance created it", async () => {
    const bodies: { run_id: string; status: string; values: { trail: string[] } }[] = [];
    const waiters: (() => void)[] = [];
    receiver = createHttpServer((request, response) => {
      let body = "";
      request.on("data", (chunk) => {
        body += chunk;
      });
      request.on("end", () => {
        bodies.push(JSON.parse(body));
        response.end();
        for (const wake of waiters.splice(0)) wake();
      });
    });
    await new Promise<void>((resolve) => receiver!.listen(0, "127.0.0.1", resolve));
    const webhook = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook`;
    const received = async (count: number) => {
      while (bodies.length < count) await new Promise<void>((wake) => waiters.push(wake));
      return bodies;
    };

    const webhooks = { allowPrivateNetworks: true };
    const { world, clientA, clientB } = await instances.two("webhooks", { webhooks });
    const thread = await clientA.threads.create();
    const first = await clientA.runs.create(thread.thread_id, "chain", {
      input: { hold: true, label: "1" },
      webhook,
    });
    await expect.poll(() => world.ran.includes("A:b:1")).toBe(true);
    // Created on B, executed on A, which holds the thread.
    const second = await clientB.runs.create(thread.thread_id, "chain", {
      input: { label: "2" },
      multitaskStrategy: "enqueue",
      webhook,
    });
    world.gate.open();
    await received(2);
    expect(world.ran.filter((entry) => entry.endsWith(":2"))).toEqual(["A:a:2", "A:b:2", "A:c:2"]);
    const third = await clientB.runs.create(null, "chain", { input: { label: "3" }, webhook });
    const all = await received(3);
    expect(all.map((body) => body.run_id).sort()).toEqual(
      [first.run_id, second.run_id, third.run_id].sort(),
    );
    expect(all.find((body) => body.run_id === second.run_id)).toMatchObject({
      status: "success",
      values: { trail: ["a1", "b1", "c1", "a2", "b2", "c2"] },
    });
  });
});
