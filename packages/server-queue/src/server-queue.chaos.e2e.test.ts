import type { ChildProcess } from "node:child_process";
import { fileURLToPath } from "node:url";
import { PostgresSaver } from "@framework/checkpoint-postgres";
import {
  Condition,
  type FixtureChildRun,
  freePort,
  runFixtureChild,
  seededRandom,
  uniqueName,
} from "@framework/testing";
import { Client } from "@langchain/langgraph-sdk";
import { afterAll, describe, expect, it } from "vitest";
import {
  crewNodes,
  dropSchema,
  postgresUrl,
  servicesMissing,
  sql,
  startRedis,
  stopRedis,
} from "./test-queue.js";

// The chaos run is 200 runs; CI runs a reduced one. CHAOS_RUNS, CHAOS_INSTANCE_KILLS,
// CHAOS_WORKER_KILLS and CHAOS_SEED choose another.
const runs = Number(process.env.CHAOS_RUNS ?? 40);
const instanceKills = Number(process.env.CHAOS_INSTANCE_KILLS ?? 3);
const workerKills = Number(process.env.CHAOS_WORKER_KILLS ?? 3);
const seed = Number(process.env.CHAOS_SEED ?? 28);
const instanceCount = 3;
const workerCount = 3;
/** Short, so the SIGSTOP'd worker loses its leases within the test's time. */
const leaseTimeoutMs = 3_000;
/** The stopped worker's own warnings when its checkpoint or event was refused. */
const refusal = /may no longer write it|was not written: no row of server_thread_leases/;

const packageRoot = fileURLToPath(new URL("..", import.meta.url));
const fixture = fileURLToPath(new URL("../test/fixtures/chaos-process.ts", import.meta.url));

interface Member {
  readonly name: string;
  readonly role: "instance" | "worker";
  readonly lines: string[];
  readonly exited: Promise<FixtureChildRun>;
  readonly process: ChildProcess;
  /** An instance's SDK client. */
  readonly client: Client | undefined;
  /** The streams clients follow on an instance: aborted when it is killed. */
  readonly streams: Set<AbortController>;
}

type StreamPart = { id?: string; event: string; data: unknown };

const schema = uniqueName("chaos");
const queueName = uniqueName("chaos");
/** Every process started (instances, workers, Redis), killed at the end whatever happened. */
const children = new Set<ChildProcess>();
afterAll(async () => {
  for (const child of children) {
    if (child.exitCode === null && child.signalCode === null) child.kill("SIGKILL");
  }
  if (!servicesMissing) await dropSchema(schema);
});

describe.skipIf(servicesMissing)("server instances and workers under chaos", () => {
  it(
    `streams ${runs} crew runs to clients through ${instanceKills + workerKills} SIGKILLs, a SIGSTOP and a Redis restart`,
    async () => {
      const started = Date.now();
      const random = seededRandom(seed);
      // The clients' picks of an instance, apart, so their timing does not move the schedule.
      const pick = seededRandom(seed + 1);
      const redisPort = await freePort();
      let redis = await startRedis(redisPort);
      children.add(redis);
      const redisUrl = `redis://127.0.0.1:${redisPort}`;

      /** What happened when, for the failure message. */
      const schedule: string[] = [];
      /** Notified whenever a process comes up or starts a node, or a client's stream ends. */
      const progress = new Condition();

      const live = new Map<string, Member>();
      let spawned = 0;
      let nodeStarts = 0;
      /** The worker that started each topic's latest node. */
      const lastWorkerOf = new Map<string, string>();
      /** The worker that most recently started a node: the one a kill hurts most. */
      let busiest: string | undefined;
      const spawn = async (role: Member["role"]) => {
        spawned += 1;
        const name = `${role === "instance" ? "i" : "w"}${spawned}`;
        const config = {
          role,
          name,
          redis: redisUrl,
          schema,
          queueName,
          leaseTimeoutMs,
          recoveryIntervalMs: 500,
          concurrency: 1,
        };
        let up!: () => void;
        const isUp = new Promise<void>((resolve) => {
          up = resolve;
        });
        const lines: string[] = [];
        let client: Client | undefined;
        let child!: ChildProcess;
        const exited = runFixtureChild(fixture, [JSON.stringify(config)], {
          cwd: packageRoot,
          onStart: (started) => {
            child = started;
            children.add(started);
          },
          onLine: (line) => {
            lines.push(line);
            if (line === "ready") up();
            if (line.startsWith("listening ")) {
              client = new Client({ apiUrl: line.slice("listening ".length) });
              up();
            }
            if (line.startsWith("node ")) {
              nodeStarts += 1;
              lastWorkerOf.set(line.split(" ")[2]!, name);
              busiest = name;
              progress.notifyAll();
            }
          },
        });
        const exitedEarly = exited.then((run) => {
          throw new Error(`${name} exited before it was up: ${run.stderr}`);
        });
        // Killed later, it rejects unheard.
        exitedEarly.catch(() => undefined);
        await Promise.race([isUp, exitedEarly]);
        const member: Member = {
          name,
          role,
          lines,
          exited,
          process: child,
          client,
          streams: new Set(),
        };
        live.set(name, member);
        progress.notifyAll();
        return member;
      };
      const liveOf = (role: Member["role"]) =>
        [...live.values()].filter((member) => member.role === role);

      // The first instance creates the schema; the others and the workers find it.
      await spawn("instance");
      // Which process wrote each checkpoint that was committed, and when: its session's name.
      await sql(`
        CREATE TABLE "${schema}".chaos_checkpoint_writers (
          thread_id text, seq bigint, writer text, written_at timestamptz DEFAULT clock_timestamp());
        CREATE FUNCTION "${schema}".chaos_record_writer() RETURNS trigger LANGUAGE plpgsql AS $$
          BEGIN
            INSERT INTO "${schema}".chaos_checkpoint_writers (thread_id, seq, writer)
              VALUES (NEW.thread_id, NEW.seq, current_setting('application_name'));
            RETURN NEW;
          END $$;
        CREATE TRIGGER chaos_record_writer AFTER INSERT ON "${schema}".checkpoints
          FOR EACH ROW EXECUTE FUNCTION "${schema}".chaos_record_writer();`);
      await Promise.all([
        ...Array.from({ length: instanceCount - 1 }, () => spawn("instance")),
        ...Array.from({ length: workerCount }, () => spawn("worker")),
      ]);

      /** A client following one run: when its instance dies, it rejoins a random live one. */
      const ended = new Set<string>();
      let reconnects = 0;
      const follow = async (topic: string, threadId: string, runId: string) => {
        const received: StreamPart[] = [];
        let lastEventId: string | undefined;
        for (;;) {
          await progress.waitFor(() => liveOf("instance").length > 0);
          const instances = liveOf("instance");
          const instance = instances[Math.floor(pick() * instances.length)]!;
          const stream = new AbortController();
          instance.streams.add(stream);
          try {
            for await (const part of instance.client!.runs.joinStream(threadId, runId, {
              signal: stream.signal,
              ...(lastEventId === undefined ? {} : { lastEventId }),
            })) {
              received.push(part as StreamPart);
              if (part.id !== undefined) lastEventId = part.id;
            }
            if (!stream.signal.aborted) break;
          } catch (error) {
            if (!stream.signal.aborted) throw error;
          } finally {
            instance.streams.delete(stream);
          }
          reconnects += 1;
        }
        ended.add(topic);
        progress.notifyAll();
        return received;
      };

      // Clients create their runs on random instances, then stream them.
      const threads = new Map<string, string>();
      schedule.push(`${((Date.now() - started) / 1000).toFixed(1)} s: up`);
      const clients: Promise<{ topic: string; runId: string; received: StreamPart[] }>[] = [];
      const create = async (i: number) => {
        const topic = `t${i}`;
        const instances = liveOf("instance");
        const { client } = instances[Math.floor(pick() * instances.length)]!;
        const thread = await client!.threads.create();
        const run = await client!.runs.create(thread.thread_id, "crew", {
          input: { topic },
          streamMode: ["updates", "values"],
        });
        threads.set(topic, thread.thread_id);
        clients.push(
          follow(topic, thread.thread_id, run.run_id).then((received) => ({
            topic,
            runId: run.run_id,
            received,
          })),
        );
      };
      let created = 0;
      /** Creates the next `count` runs, ten at a time. */
      const createWave = async (count: number) => {
        const end = Math.min(runs, created + count);
        while (created < end) {
          const batch = Array.from({ length: Math.min(10, end - created) }, (_, j) => created + j);
          created += batch.length;
          await Promise.all(batch.map(create));
        }
      };

      // The chaos, in a seeded order. The runs come in waves, one before each step and one
      // after the last: each step is taken once the workers started a seeded share of the
      // nodes of the wave just created, so it always hits runs still executing, however fast
      // the machine.
      const steps = [
        ...Array<string>(instanceKills).fill("kill instance"),
        ...Array<string>(workerKills).fill("kill worker"),
        "stop worker",
        "restart redis",
      ];
      for (let i = steps.length - 1; i > 0; i -= 1) {
        const j = Math.floor(random() * (i + 1));
        [steps[i], steps[j]] = [steps[j]!, steps[i]!];
      }
      const waveSize = Math.max(1, Math.floor(runs / (steps.length + 1)));
      const replacements: Promise<Member>[] = [];

      let stopped: { member: Member; held: string[]; takenOverAt: Date } | undefined;
      const running = () => liveOf("worker").filter((worker) => worker !== stopped?.member);
      for (const step of steps) {
        // Clients always have an instance to rejoin, and runs a worker.
        if (step === "kill instance") await progress.waitFor(() => liveOf("instance").length > 1);
        if (step === "kill worker") await progress.waitFor(() => running().length > 1);
        const target =
          nodeStarts + Math.floor(waveSize * crewNodes.length * (0.2 + 0.5 * random()));
        await createWave(waveSize);
        await progress.waitFor(() => nodeStarts >= target || ended.size === created);
        schedule.push(
          `${((Date.now() - started) / 1000).toFixed(1)} s, ${nodeStarts} nodes, ${ended.size} of ${created} runs ended: ${step}`,
        );
        if (step === "kill instance") {
          const instances = liveOf("instance");
          const victim = instances[Math.floor(random() * instances.length)]!;
          victim.process.kill("SIGKILL");
          live.delete(victim.name);
          // Its clients see their connection go: each rejoins another instance.
          for (const stream of victim.streams) stream.abort();
          replacements.push(spawn("instance"));
        } else if (step === "kill worker") {
          const workers = running();
          const victim =
            busiest &&
            live.has(busiest) &&
            live.get(busiest) !== stopped?.member &&
            random() < 2 / 3
              ? live.get(busiest)!
              : workers[Math.floor(random() * workers.length)]!;
          victim.process.kill("SIGKILL");
          live.delete(victim.name);
          replacements.push(spawn("worker"));
        } else if (step === "stop worker") {
          // The worker with the most runs in flight, held past its lease until every one of
          // them was taken over by another worker (or ended).
          const inFlight = (worker: Member) =>
            [...lastWorkerOf]
              .filter(([topic, by]) => by === worker.name && !ended.has(topic))
              .map(([topic]) => topic);
          const member = liveOf("worker").sort(
            (a, b) => inFlight(b).length - inFlight(a).length,
          )[0]!;
          member.process.kill("SIGSTOP");
          const held = inFlight(member);
          await progress.waitFor(() =>
            held.every((topic) => ended.has(topic) || lastWorkerOf.get(topic) !== member.name),
          );
          // From now on its lease allows it no write on those threads.
          const { rows } = await sql<{ now: Date }>("SELECT clock_timestamp() AS now");
          stopped = { member, held, takenOverAt: rows[0]!.now };
          member.process.kill("SIGCONT");
          // Continued, it finishes what it was doing (and is refused), then retires: another
          // worker takes its place.
          member.process.kill("SIGTERM");
          live.delete(member.name);
          replacements.push(spawn("worker"));
        } else {
          await stopRedis(redis);
          redis = await startRedis(redisPort);
          children.add(redis);
        }
      }
      await createWave(runs - created);
      schedule.push(`${((Date.now() - started) / 1000).toFixed(1)} s: chaos over`);
      await Promise.all(replacements);
      const streamed = await Promise.all(clients);

      // Every run ended once, `success`.
      const { rows: statuses } = await sql<{ status: string; runs: number }>(
        `SELECT status, count(*)::int AS runs FROM "${schema}".server_runs GROUP BY status`,
      );
      const succeeded = statuses.find((row) => row.status === "success")?.runs ?? 0;
      const lost = runs - succeeded;
      const saver = new PostgresSaver({ connectionString: postgresUrl!, schema });
      const readClient = liveOf("instance")[0]!.client!;
      let completedTwice = 0;
      let eventsWrong = 0;
      try {
        for (const { topic, runId, received } of streamed) {
          const threadId = threads.get(topic)!;
          // Each node's end was checkpointed once: none ran to its end twice, nor did the run.
          const ends = new Map<string, number>();
          for await (const checkpoint of saver.list(threadId)) {
            if (checkpoint.version === 2 && checkpoint.source === "node" && checkpoint.node)
              ends.set(checkpoint.node, (ends.get(checkpoint.node) ?? 0) + 1);
          }
          const { values } = await readClient.threads.getState<{ trail: string[] }>(threadId);
          const nodes = values.trail.map((entry) => entry.split("@")[0]).sort();
          if (
            crewNodes.some((node) => ends.get(node) !== 1) ||
            nodes.join() !== [...crewNodes].sort().join()
          )
            completedTwice += 1;
          // The client got the run's whole log, every event once, in order.
          const log: StreamPart[] = [];
          for await (const part of readClient.runs.joinStream(threadId, runId))
            log.push(part as StreamPart);
          const ids = received.map((part) => Number(part.id));
          if (
            JSON.stringify(received) !== JSON.stringify(log) ||
            ids.some((id, index) => id !== index + 1) ||
            log.length === 0
          )
            eventsWrong += 1;
        }
      } finally {
        await saver.close();
      }
      // No checkpoint the stopped worker wrote on the threads it held was committed after
      // another worker took them over.
      const { rows: fenced } = await sql<{ writes: number }>(
        `SELECT count(*)::int AS writes FROM "${schema}".chaos_checkpoint_writers
         WHERE writer = $1 AND written_at > $2 AND thread_id = ANY($3)`,
        [
          stopped!.member.name,
          stopped!.takenOverAt,
          stopped!.held.map((topic) => threads.get(topic)!),
        ],
      );
      const fencedWrites = fenced[0]!.writes;
      // Its refusals are logged as warnings, or on standard error: all in once it exited.
      const stoppedRun = await stopped!.member.exited;
      const refused = [...stopped!.member.lines, ...stoppedRun.stderr.split("\n")].filter((line) =>
        refusal.test(line),
      ).length;

      const seconds = ((Date.now() - started) / 1000).toFixed(1);
      console.log(
        `server chaos: ${runs} runs, ${instanceCount} instances, ${workerCount} workers, ` +
          `${instanceKills + workerKills} SIGKILLs (${instanceKills} instances, ${workerKills} workers), ` +
          `1 SIGSTOP, 1 Redis restart: ${lost} runs lost, ${completedTwice} completed twice, ` +
          `${eventsWrong} events lost or duplicated on ${runs} clients (${reconnects} reconnects), ` +
          `${fencedWrites} checkpoints from fenced workers (${refused} refused) in ${seconds} s (seed ${seed})`,
      );
      expect({ lost, completedTwice, eventsWrong, fencedWrites }, schedule.join("\n")).toEqual({
        lost: 0,
        completedTwice: 0,
        eventsWrong: 0,
        fencedWrites: 0,
      });
      // The chaos hit running work: every step was taken before the last run ended, and the
      // stopped worker held runs that others took over.
      expect(
        schedule.filter((line) => /\b(\d+) of \1 runs ended/.test(line)),
        schedule.join("\n"),
      ).toEqual([]);
      expect(stopped!.held.length, schedule.join("\n")).toBeGreaterThan(0);
    },
    Math.max(180_000, runs * 3_000),
  );
});
