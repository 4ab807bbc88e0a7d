// Crews over worker processes (@framework/crew-queue): runs per second with 1, 2 and 4 worker
// processes (a three-node crew with a no-op model, so what is measured is the queue: BullMQ
// wake-ups, leases, fenced checkpoints and results in Postgres), and the time from a worker's
// SIGKILL mid-node to the run resuming on another worker.
//
//   pnpm --filter @framework/bench bench:queue [--smoke]
//
// Needs `pnpm build` and the servers of `pnpm services:start`.
import { randomUUID } from "node:crypto";
import { fileURLToPath } from "node:url";
import { PostgresSaver } from "@framework/checkpoint-postgres";
import { CrewQueue } from "@framework/crew-queue";
import pg from "pg";
import { type LineChild, startLineChild, stopLineChildren } from "./line-child.js";
import { currentEnvironment, formatNumber } from "./report.js";
import { checkServices, configuredServiceUrls } from "./services.js";

const smoke = process.argv.includes("--smoke");
const runsPerSample = smoke ? 20 : 200;
const workerCounts = [1, 2, 4];
const concurrency = 4;
/** The job lock and stall check of the kill measurement: the tests' settings. */
const lock = { lockDurationMs: 1_000, stalledIntervalMs: 500 };
// Checked before anything starts: without either server there is nothing to measure, and the
// run says why in a second instead of failing halfway.
const { postgres, redis } = await checkServices(["postgres", "redis"], configuredServiceUrls());
if (!postgres || "skipped" in postgres || !redis || "skipped" in redis) {
  const reasons = [postgres, redis].flatMap((status) =>
    status && "skipped" in status ? [status.skipped] : [],
  );
  console.log(`crew-queue bench skipped: ${reasons.join("; ")}.`);
  process.exit(0);
}
const postgresUrl = postgres.url;
const redisUrl = redis.url;
const workerScript = fileURLToPath(new URL("./queue-worker.ts", import.meta.url));

/** A worker process: `ready` once it takes runs. */
type Worker = LineChild & { ready: Promise<void> };

function startWorker(config: Record<string, unknown>): Worker {
  const child = startLineChild(workerScript, [JSON.stringify(config)]);
  return { ...child, ready: child.onLine((line) => line === "ready").then(() => undefined) };
}

const stop = stopLineChildren;

async function withQueue<T>(
  fn: (queue: CrewQueue, base: Record<string, unknown>) => Promise<T>,
): Promise<T> {
  const schema = `bench_queue_${randomUUID().replaceAll("-", "").slice(0, 10)}`;
  const queueName = `bench-${schema}`;
  const saver = new PostgresSaver({ connectionString: postgresUrl, schema });
  const queue = new CrewQueue({ connection: { url: redisUrl }, checkpointer: saver, queueName });
  try {
    await queue.stats();
    return await fn(queue, { postgresUrl, redisUrl, schema, queueName });
  } finally {
    await queue.close();
    await saver.close();
    const client = new pg.Client({ connectionString: postgresUrl });
    await client.connect();
    await client.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
    await client.end();
  }
}

/** Runs per second: `runsPerSample` runs on distinct threads, submitted at once. */
function throughput(workerCount: number): Promise<number> {
  return withQueue(async (queue, base) => {
    const workers = Array.from({ length: workerCount }, (_, i) =>
      startWorker({ ...base, ...lock, workerId: `w${i}`, concurrency }),
    );
    await Promise.all(workers.map((worker) => worker.ready));
    try {
      const started = performance.now();
      const runs = await Promise.all(
        Array.from({ length: runsPerSample }, (_, i) => queue.submit("noop", { query: `q${i}` })),
      );
      await Promise.all(runs.map((run) => queue.result(run.runId)));
      return runsPerSample / ((performance.now() - started) / 1000);
    } finally {
      await stop(workers);
    }
  });
}

/** Milliseconds from a worker's SIGKILL (hung in node b) to node b starting on another. */
function killToResume(): Promise<number> {
  return withQueue(async (queue, base) => {
    const doomed = startWorker({
      ...base,
      ...lock,
      workerId: "doomed",
      concurrency: 1,
      hangIn: "b",
    });
    await doomed.ready;
    const run = await queue.submit("noop", { query: "q" });
    await doomed.onLine((line) => line === `b ${run.runId}`);
    const survivor = startWorker({ ...base, ...lock, workerId: "survivor", concurrency: 1 });
    await survivor.ready;
    const events = queue.events(run.runId);
    const resumed = (async () => {
      for await (const event of events) {
        if (event.type === "node_start" && event.node === "b" && event.attempt > 1)
          return performance.now();
      }
      throw new Error("the run ended without resuming");
    })();
    const killedAt = performance.now();
    doomed.child.kill("SIGKILL");
    const at = await resumed;
    await queue.result(run.runId);
    await stop([survivor]);
    return at - killedAt;
  });
}

const environment = currentEnvironment();
console.log(
  `crew-queue bench: ${runsPerSample} runs per sample, concurrency ${concurrency} per worker`,
);
const rows: { workers: number; runsPerSecond: number }[] = [];
for (const count of workerCounts) {
  const runsPerSecond = await throughput(count);
  rows.push({ workers: count, runsPerSecond });
  console.log(`  ${count} worker process(es): ${formatNumber(runsPerSecond)} runs/s`);
}
const resumeMs = await killToResume();
console.log(
  `  SIGKILL mid-node -> resumed on another worker: ${Math.round(resumeMs)} ms ` +
    `(lockDurationMs ${lock.lockDurationMs}, stalledIntervalMs ${lock.stalledIntervalMs})`,
);
console.log(`  ${JSON.stringify(environment)}`);
