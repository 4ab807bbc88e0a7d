import type { ChildProcess } from "node:child_process";
import { fileURLToPath } from "node:url";
import { Condition, runFixtureChild, seededRandom, uniqueName } from "@framework/testing";
import pg from "pg";
import { afterAll, describe, expect, it } from "vitest";
import { CrewQueue } from "./crew-queue.js";
import type { RunNotice } from "./internal/run-store.js";
import { expectedState } from "./test-crew.js";
import {
  dropSchema,
  loseQueueKeys,
  postgresUrl,
  redisUrl,
  servicesMissing,
  testSaver,
} from "./test-services.js";

// The chaos run is 200 runs over 4 workers with 20 SIGKILLs; CI runs a reduced one.
// CHAOS_RUNS, CHAOS_WORKERS, CHAOS_KILLS and CHAOS_SEED choose another.
const runs = Number(process.env.CHAOS_RUNS ?? 30);
const workers = Number(process.env.CHAOS_WORKERS ?? 3);
const kills = Number(process.env.CHAOS_KILLS ?? 5);
const seed = Number(process.env.CHAOS_SEED ?? 18);

const packageRoot = fileURLToPath(new URL("..", import.meta.url));
const workerFixture = fileURLToPath(new URL("../test/fixtures/worker.ts", import.meta.url));

interface Child {
  id: string;
  process: ChildProcess;
  exited: Promise<unknown>;
  lines: string[];
}

const schema = uniqueName("chaos");
const queueName = uniqueName("chaos");
/** Every worker process started, killed at the end whatever happened (a timeout too). */
const children = new Set<ChildProcess>();
afterAll(async () => {
  for (const child of children) {
    if (child.exitCode === null && child.signalCode === null) child.kill("SIGKILL");
  }
  await loseQueueKeys(queueName);
  await dropSchema(schema);
});

describe.skipIf(servicesMissing)("crew-queue under chaos", () => {
  it(
    `finishes ${runs} runs over ${workers} worker processes with ${kills} SIGKILLs and a SIGSTOPped zombie`,
    async () => {
      const started = Date.now();
      const random = seededRandom(seed);
      const saver = await testSaver(schema);
      const queue = new CrewQueue({
        connection: { url: redisUrl! },
        checkpointer: saver,
        queueName,
      });

      // Every status change and node event of every run, as they commit.
      const notices: RunNotice[] = [];
      const noticed = new Condition();
      const listener = new pg.Client({ connectionString: postgresUrl! });
      await listener.connect();
      await queue.stats(); // creates the runs table, hence its channel's name is in use
      listener.on("notification", (message) => {
        notices.push(JSON.parse(message.payload!) as RunNotice);
        noticed.notifyAll();
      });
      await listener.query(`LISTEN "crew_runs_${schema}"`);
      const nodeStarts = () => notices.filter((notice) => notice.type === "node_start").length;

      let spawned = 0;
      const live = new Map<string, Child>();
      /** The worker that most recently started a node: the one a kill hurts. */
      let busiest: Child | undefined;
      const spawnWorker = async () => {
        spawned += 1;
        const id = `chaos-w${spawned}`;
        let ready!: () => void;
        const isReady = new Promise<void>((resolve) => {
          ready = resolve;
        });
        const child = { id, lines: [] as string[] } as unknown as Child;
        const config = {
          schema,
          queueName,
          workerId: id,
          latencyMs: 250,
          concurrency: 2,
          seed: spawned,
        };
        child.exited = runFixtureChild(workerFixture, [JSON.stringify(config)], {
          cwd: packageRoot,
          onStart: (process) => {
            child.process = process;
            children.add(process);
          },
          onLine: (line) => {
            child.lines.push(line);
            if (line === "ready") ready();
            if (/^[abc] /.test(line)) busiest = child;
          },
        });
        live.set(id, child);
        // A worker may be the one killed before it is even ready.
        await Promise.race([isReady, child.exited]);
        return child;
      };
      const all: Child[] = [];
      for (let i = 0; i < workers; i += 1) all.push(await spawnWorker());

      const submitted = [];
      for (let i = 0; i < runs; i += 1) {
        submitted.push(await queue.submit("test", { query: `q${i}`, threadId: `chaos-${i}` }));
      }

      const allDone = () =>
        notices.filter((notice) => notice.type === "status" && notice.status === "done").length ===
        runs;
      // After a random number of node starts, SIGKILL the worker that started the latest node
      // (or, one time in three, a random one) and start another in its place.
      const replacements: Promise<Child>[] = [];
      for (let k = 0; k < kills; k += 1) {
        const target = nodeStarts() + 1 + Math.floor(random() * 6);
        await noticed.waitFor(() => nodeStarts() >= target || allDone());
        const candidates = [...live.values()];
        const victim =
          busiest && live.has(busiest.id) && random() < 2 / 3
            ? busiest
            : candidates[Math.floor(random() * candidates.length)]!;
        victim.process.kill("SIGKILL");
        live.delete(victim.id);
        replacements.push(spawnWorker());
      }
      all.push(...(await Promise.all(replacements)));

      // The zombie: freeze the worker that started the latest node, until another worker took
      // one of its runs over; then let it wake up and try to write.
      const zombieStart = notices.length;
      await noticed.waitFor(
        () =>
          notices.slice(zombieStart).some((notice) => notice.type === "node_start") || allDone(),
      );
      const zombie = busiest && live.has(busiest.id) ? busiest : [...live.values()][0]!;
      zombie.process.kill("SIGSTOP");
      const frozenAt = notices.length;
      const takenOver = () =>
        notices
          .slice(frozenAt)
          .some(
            (notice) =>
              notice.type === "status" && notice.status === "running" && (notice.attempt ?? 1) > 1,
          );
      await noticed.waitFor(() => takenOver() || allDone());
      zombie.process.kill("SIGCONT");

      const results = await Promise.all(submitted.map((run) => queue.result(run.runId)));

      // Every run ended once, with the state an uninterrupted run has.
      for (const [i, state] of results.entries())
        expect(state).toMatchObject(expectedState(`q${i}`));
      const records = await Promise.all(submitted.map((run) => queue.get(run.runId)));
      const lost = records.filter((record) => record.status !== "done").length;
      let completedTwice = 0;
      let fencedWrites = 0;
      for (const run of submitted) {
        const checkpoints = [];
        for await (const checkpoint of saver.list(run.threadId)) checkpoints.push(checkpoint);
        checkpoints.reverse();
        if (checkpoints.filter((checkpoint) => checkpoint.status === "done").length !== 1)
          completedTwice += 1;
        // A fenced worker's write would show as a checkpoint of an older attempt after a newer one.
        let attempt = 0;
        for (const checkpoint of checkpoints) {
          const by = Number(checkpoint.metadata?.attempt ?? 0);
          if (by < attempt) fencedWrites += 1;
          attempt = Math.max(attempt, by);
        }
      }
      const takeovers = records.reduce((sum, record) => sum + record.attempts - 1, 0);
      const refused = all
        .flatMap((child) => child.lines)
        .filter((line) => line.includes("Lost the lease")).length;

      for (const child of live.values()) child.process.kill("SIGTERM");
      await Promise.all(all.map((child) => child.exited));
      await listener.end();
      await queue.close();
      await saver.close();

      const seconds = ((Date.now() - started) / 1000).toFixed(1);
      console.log(
        `chaos: ${runs} runs over ${workers} worker processes, ${kills} SIGKILLs, 1 SIGSTOP zombie: ` +
          `${runs - lost} done, ${lost} lost, ${completedTwice} completed twice, ` +
          `${fencedWrites} checkpoints by fenced workers (${refused} zombie writes refused, ${takeovers} takeovers) in ${seconds} s`,
      );
      expect({ lost, completedTwice, fencedWrites }).toEqual({
        lost: 0,
        completedTwice: 0,
        fencedWrites: 0,
      });
      expect(takeovers).toBeGreaterThan(0);
    },
    Math.max(600_000, runs * 20_000),
  );
});
