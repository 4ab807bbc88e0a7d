import { createServer as createHttpServer } from "node:http";
import type { AddressInfo } from "node:net";
import type { WebhookOptions } from "@framework/server";
import { Queue } from "bullmq";
import { Redis } from "ioredis";
import { describe, expect, it } from "vitest";
import { webhookQueueName } from "./server-queue-connection.js";
import {
  chainWorld,
  redisUrl,
  servicesMissing,
  startInstance,
  startWorker,
  testDeployments,
} from "./test-queue.js";

const secret = "whsec_cXVldWUtd2ViaG9vay1zZWNyZXQtdGVzdA==";
/** The key the secret names: what a leak of the secret would most likely carry. */
const secretKey = secret.slice("whsec_".length);

const deployments = testDeployments();

/** One request a receiver got. */
interface Received {
  readonly id: string;
  readonly signature: string | undefined;
  readonly body: string;
}

/**
 * A webhook receiver on loopback answering each request with the next of `answers` (the last
 * one repeats); `arrived` is called as each request ends.
 */
async function receiver(
  answers: readonly { status: number; retryAfter?: string }[],
  arrived: (received: Received[]) => void = () => {},
) {
  const received: Received[] = [];
  const server = createHttpServer((request, response) => {
    let body = "";
    request.setEncoding("utf8").on("data", (chunk: string) => {
      body += chunk;
    });
    request.on("end", () => {
      const answer = answers[Math.min(received.length, answers.length - 1)]!;
      received.push({
        id: request.headers["webhook-id"] as string,
        signature: request.headers["webhook-signature"] as string | undefined,
        body,
      });
      if (answer.retryAfter !== undefined) response.setHeader("retry-after", answer.retryAfter);
      response.statusCode = answer.status;
      response.end();
      arrived(received);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  deployments.keep(server);
  const { port } = server.address() as AddressInfo;
  return { received, url: `http://127.0.0.1:${port}/run-ended` };
}

/** A fresh schema and queue, their webhook queue and a BullMQ handle on it. */
function deployment(label: string) {
  const connection = deployments.connection(label);
  const webhookJobs = new Queue(webhookQueueName(connection.queueName), {
    connection: { url: redisUrl! },
  });
  deployments.keep(webhookJobs);
  return { connection, webhookJobs, world: chainWorld() };
}

const webhooks: WebhookOptions = {
  secret,
  allowPrivateNetworks: true,
  retryDelayMs: 10,
  maxRetryDelayMs: 50,
};

/** Polls give up after this long (the machine may be busy); each ends once what it waits for holds. */
const patiently = { timeout: 30_000 };

describe.skipIf(servicesMissing)("webhooks through the queue", () => {
  it("retries a webhook the receiver failed until it is delivered, once", async () => {
    const { connection, webhookJobs, world } = deployment("hook_retry");
    const hook = await receiver([{ status: 503 }, { status: 503 }, { status: 200 }]);
    const a = await startInstance(connection, "A", world, { webhooks });
    deployments.keep(a);
    deployments.keep(await startWorker(connection, "W1", world, { webhooks }));
    await a.client.runs.wait(null, "chain", { input: { label: "1" }, webhook: hook.url });
    await expect.poll(() => hook.received.length, patiently).toBe(3);
    const [first] = hook.received;
    await expect.poll(() => webhookJobs.getJobState(first!.id), patiently).toBe("completed");
    expect(hook.received).toHaveLength(3);
    expect(new Set(hook.received.map((request) => request.id))).toEqual(new Set([first!.id]));
    expect(hook.received.every((request) => /^v1,/.test(request.signature ?? ""))).toBe(true);
    expect(JSON.parse(first!.body)).toMatchObject({ status: "success" });
  });

  it("delivers a retry pending when its worker closed from another worker", async () => {
    const { connection, webhookJobs, world } = deployment("hook_handover");
    // The receiver asks for a minute: the retry waits in Redis, not in a worker's memory.
    const patient = { ...webhooks, maxRetryDelayMs: 60_000 };
    const hook = await receiver([{ status: 503, retryAfter: "60" }, { status: 200 }]);
    const a = await startInstance(connection, "A", world, { webhooks: patient });
    deployments.keep(a);
    const w1 = await startWorker(connection, "W1", world, { webhooks: patient });
    await a.client.runs.wait(null, "chain", { input: { label: "1" }, webhook: hook.url });
    await expect.poll(() => hook.received.length, patiently).toBe(1);
    const id = hook.received[0]!.id;
    await expect.poll(() => webhookJobs.getJobState(id), patiently).toBe("delayed");
    expect((await webhookJobs.getJob(id))?.delay).toBe(60_000);
    await w1.close();
    deployments.keep(await startWorker(connection, "W2", world, { webhooks: patient }));
    // The minute passes at once.
    await (await webhookJobs.getJob(id))!.promote();
    await expect.poll(() => webhookJobs.getJobState(id), patiently).toBe("completed");
    expect(hook.received.map((request) => request.id)).toEqual([id, id]);
    expect(hook.received[1]!.signature).toMatch(/^v1,/);
  });

  it("does not retry a webhook the receiver refused with a 4xx", async () => {
    const { connection, webhookJobs, world } = deployment("hook_refused");
    const hook = await receiver([{ status: 400 }, { status: 200 }]);
    const a = await startInstance(connection, "A", world, { webhooks });
    deployments.keep(a);
    deployments.keep(await startWorker(connection, "W1", world, { webhooks }));
    await a.client.runs.wait(null, "chain", { input: { label: "1" }, webhook: hook.url });
    await expect.poll(() => hook.received.length, patiently).toBe(1);
    const id = hook.received[0]!.id;
    await expect.poll(() => webhookJobs.getJobState(id), patiently).toBe("failed");
    const job = await webhookJobs.getJob(id);
    expect(job?.attemptsMade).toBe(1);
    expect(hook.received).toHaveLength(1);
  });

  it("never writes the signing secret to Redis", async () => {
    const { connection, webhookJobs, world } = deployment("hook_secret");
    const hook = await receiver([{ status: 503 }, { status: 200 }]);
    const a = await startInstance(connection, "A", world, { webhooks });
    deployments.keep(a);
    deployments.keep(await startWorker(connection, "W1", world, { webhooks }));
    const run = await a.client.runs.create(null, "chain", {
      input: { label: "1" },
      webhook: hook.url,
    });
    await expect.poll(() => hook.received.length, patiently).toBe(2);
    await expect
      .poll(() => webhookJobs.getJobState(hook.received[0]!.id), patiently)
      .toBe("completed");
    const stored = await redisText(`bull:${webhookQueueName(connection.queueName)}:*`);
    // The scan did read the job: its body tells of the run.
    expect(stored).toContain(run.run_id);
    expect(stored).not.toContain(secretKey);
    expect(stored).not.toContain(secret);
  });
});

/** Every value of every Redis key matching `pattern`, as one text. */
async function redisText(pattern: string): Promise<string> {
  const redis = new Redis(redisUrl!);
  try {
    const parts: string[] = [];
    let cursor = "0";
    do {
      const [next, keys] = await redis.scan(cursor, "MATCH", pattern, "COUNT", 500);
      cursor = next;
      for (const key of keys) {
        const type = await redis.type(key);
        parts.push(key);
        if (type === "string") parts.push((await redis.get(key)) ?? "");
        else if (type === "hash") parts.push(JSON.stringify(await redis.hgetall(key)));
        else if (type === "list") parts.push(JSON.stringify(await redis.lrange(key, 0, -1)));
        else if (type === "set") parts.push(JSON.stringify(await redis.smembers(key)));
        else if (type === "zset") parts.push(JSON.stringify(await redis.zrange(key, "0", "-1")));
        else if (type === "stream") parts.push(JSON.stringify(await redis.xrange(key, "-", "+")));
      }
    } while (cursor !== "0");
    return parts.join("\n");
  } finally {
    redis.disconnect();
  }
}
