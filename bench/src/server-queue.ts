// Server instances over queue workers (@framework/server-queue): runs per second with 1, 2
// and 4 worker processes against BullMQ's own floor on the same Redis (no-op jobs added and
// completed by bare BullMQ workers, the physical limit of the design), and the time from an
// instance's SIGKILL to its client's stream going on from another instance.
//
//   pnpm --filter @framework/bench bench:server-queue [--smoke]
//
// Needs `pnpm build` and the servers of `pnpm services:start`.
import { randomUUID } from "node:crypto";
import { fileURLToPath } from "node:url";
import { Client } from "@langchain/langgraph-sdk";
import { Queue, QueueEvents } from "bullmq";
import pg from "pg";
import { type LineChild, startLineChild, stopLineChildren } from "./line-child.js";
import { currentEnvironment, formatNumber } from "./report.js";
import { pacedSteps } from "./server-queue-graphs.js";
import { checkServices, configuredServiceUrls } from "./services.js";
import { median } from "./stats.js";
import { startTcpBalancer } from "./tcp-balancer.js";

const smoke = process.argv.includes("--smoke");
const runsPerSample = smoke ? 20 : 200;
const samples = smoke ? 1 : 3;
const failovers = smoke ? 1 : 5;
const workerCounts = [1, 2, 4];
const concurrency = 4;
const { postgres, redis } = await checkServices(["postgres", "redis"], configuredServiceUrls());
if (!postgres || "skipped" in postgres || !redis || "skipped" in redis) {
  const reasons = [postgres, redis].flatMap((status) =>
    status && "skipped" in status ? [status.skipped] : [],
  );
  console.log(`server-queue bench skipped: ${reasons.join("; ")}.`);
  process.exit(0);
}
const postgresUrl = postgres.url;
const redisUrl = redis.url;
const childScript = fileURLToPath(new URL("./server-queue-child.ts", import.meta.url));

type Role = "instance" | "worker" | "floor";

/** One deployment's meeting point: a fresh schema and queue name. */
interface Deployment {
  readonly schema: string;
  readonly queueName: string;
}

function start(role: Role, deployment: Deployment): LineChild {
  return startLineChild(childScript, [
    JSON.stringify({ role, postgresUrl, redisUrl, concurrency, ...deployment }),
  ]);
}

async function instanceUrl(instance: LineChild): Promise<string> {
  return (await instance.onLine((line) => line.startsWith("serving "))).slice("serving ".length);
}

async function withDeployment<T>(fn: (deployment: Deployment) => Promise<T>): Promise<T> {
  const name = `bench_sq_${randomUUID().replaceAll("-", "").slice(0, 10)}`;
  const deployment = { schema: name, queueName: name };
  try {
    return await fn(deployment);
  } finally {
    const client = new pg.Client({ connectionString: postgresUrl });
    await client.connect();
    await client.query(`DROP SCHEMA IF EXISTS "${deployment.schema}" CASCADE`);
    await client.end();
    const queue = new Queue(deployment.queueName, { connection: { url: redisUrl } });
    await queue.obliterate({ force: true });
    await queue.close();
  }
}

/**
 * Runs per second through one instance and `workers` worker processes: `runsPerSample` runs of
 * `chain`, each on a thread made beforehand, created at once (background) and joined.
 */
function serverRate(workers: number): Promise<number> {
  return withDeployment(async (deployment) => {
    const instance = start("instance", deployment);
    const pool = Array.from({ length: workers }, () => start("worker", deployment));
    try {
      const client = new Client({ apiUrl: await instanceUrl(instance), apiKey: null });
      await Promise.all(pool.map((worker) => worker.onLine((line) => line === "ready")));
      const rates: number[] = [];
      for (let sample = 0; sample < samples; sample++) {
        const threads = await Promise.all(
          Array.from({ length: runsPerSample }, () => client.threads.create()),
        );
        const started = performance.now();
        const runs = await Promise.all(
          threads.map((thread) => client.runs.create(thread.thread_id, "chain", { input: {} })),
        );
        await Promise.all(runs.map((run) => client.runs.join(run.thread_id, run.run_id)));
        rates.push(runsPerSample / ((performance.now() - started) / 1000));
        const statuses = await Promise.all(
          runs.map((run) => client.runs.get(run.thread_id, run.run_id)),
        );
        const failed = statuses.filter((run) => run.status !== "success");
        if (failed.length > 0) throw new Error(`${failed.length} runs did not succeed`);
      }
      return median(rates);
    } finally {
      await stopLineChildren([instance, ...pool]);
    }
  });
}

/** Jobs per second of bare BullMQ: no-op jobs added at once and completed by `workers` processes. */
function floorRate(workers: number): Promise<number> {
  return withDeployment(async (deployment) => {
    const pool = Array.from({ length: workers }, () => start("floor", deployment));
    const connection = { url: redisUrl };
    const queue = new Queue(deployment.queueName, { connection });
    const events = new QueueEvents(deployment.queueName, { connection });
    try {
      await Promise.all(pool.map((worker) => worker.onLine((line) => line === "ready")));
      await events.waitUntilReady();
      const rates: number[] = [];
      for (let sample = 0; sample < samples; sample++) {
        let completed = 0;
        const done = new Promise<void>((resolve) => {
          const onCompleted = () => {
            if (++completed < runsPerSample) return;
            events.off("completed", onCompleted);
            resolve();
          };
          events.on("completed", onCompleted);
        });
        const started = performance.now();
        await queue.addBulk(
          Array.from({ length: runsPerSample }, (_, index) => ({
            name: "noop",
            data: { index },
            opts: { removeOnComplete: true },
          })),
        );
        await done;
        rates.push(runsPerSample / ((performance.now() - started) / 1000));
      }
      return median(rates);
    } finally {
      await events.close();
      await queue.close();
      await stopLineChildren(pool);
    }
  });
}

/** One failover: from the kill, and from the client's reconnection, to the next event. */
interface Failover {
  readonly killToEventMs: number;
  readonly reconnectToEventMs: number;
}

/**
 * An instance SIGKILLed while a client streams a `paced` run from it, through a balancer over
 * two instances: the SDK's own reconnection (with the last event id) reaches the other one.
 * Checks the stream lost and repeated nothing.
 */
function failover(): Promise<Failover> {
  return withDeployment(async (deployment) => {
    const instances = [start("instance", deployment), start("instance", deployment)];
    const worker = start("worker", deployment);
    const urls = await Promise.all(instances.map(instanceUrl));
    const balancer = await startTcpBalancer(urls);
    try {
      await worker.onLine((line) => line === "ready");
      const client = new Client({ apiUrl: balancer.url, apiKey: null });
      const thread = await client.threads.create();
      const run = await client.runs.create(thread.thread_id, "paced", {
        input: {},
        streamMode: "updates",
      });
      const ids: number[] = [];
      let killedAt = 0;
      let eventAfterKill = 0;
      for await (const part of client.runs.joinStream(thread.thread_id, run.run_id)) {
        if (part.id === undefined) continue;
        ids.push(Number(part.id));
        if (killedAt !== 0) eventAfterKill ||= performance.now();
        if (ids.length === 5) {
          // The instance serving the stream: the one that sent last.
          const serving = balancer.handed.reduce((a, b) => (b.lastDataAt > a.lastDataAt ? b : a));
          killedAt = performance.now();
          instances[urls.indexOf(serving.backend)]!.child.kill("SIGKILL");
        }
      }
      const expected = Array.from({ length: ids.length }, (_, index) => index + 1);
      if (ids.join() !== expected.join() || ids.length < pacedSteps || eventAfterKill === 0) {
        throw new Error(`the stream's ids were ${ids.join(",")}`);
      }
      const reconnectedAt = balancer.handed.find((handed) => handed.at > killedAt)!.at;
      return {
        killToEventMs: eventAfterKill - killedAt,
        reconnectToEventMs: eventAfterKill - reconnectedAt,
      };
    } finally {
      await balancer.close();
      await stopLineChildren([...instances, worker]);
    }
  });
}

const environment = currentEnvironment();
console.log(
  `server-queue bench: ${runsPerSample} runs a sample, median of ${samples}, ` +
    `concurrency ${concurrency} per worker, one submitting instance`,
);
for (const count of workerCounts) {
  const ours = await serverRate(count);
  const floor = await floorRate(count);
  console.log(
    `  ${count} worker process(es): ${formatNumber(ours)} runs/s; bare BullMQ ` +
      `${formatNumber(floor)} jobs/s (ours ${formatNumber((ours / floor) * 100)}% of the floor)`,
  );
}
const measuredFailovers: Failover[] = [];
for (let attempt = 0; attempt < failovers; attempt++) measuredFailovers.push(await failover());
const ms = (values: number[]) => `${Math.round(median(values))} ms`;
console.log(
  `  instance SIGKILLed mid-stream, behind a balancer -> next event, through the SDK's own ` +
    `reconnection to the other instance: median ${ms(measuredFailovers.map((f) => f.killToEventMs))} ` +
    `from the kill (the SDK waits 1-2 s before reconnecting), ` +
    `${ms(measuredFailovers.map((f) => f.reconnectToEventMs))} from its reconnection`,
);
console.log(`  ${JSON.stringify(environment)}`);
