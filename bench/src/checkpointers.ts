import { randomUUID } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { PostgresSaver } from "@framework/checkpoint-postgres";
import { SqliteSaver } from "@framework/checkpoint-sqlite";
import { redactSecrets } from "@framework/core";
import {
  appendReducer,
  type Checkpoint,
  type Checkpointer,
  defineState,
  END,
  FlowStateGraph,
  MemorySaver,
  reducer,
  START,
} from "@framework/graph";
import {
  Annotation,
  type BaseCheckpointSaver,
  MemorySaver as LangGraphMemorySaver,
  END as LG_END,
  START as LG_START,
  StateGraph,
} from "@langchain/langgraph";
import { emptyCheckpoint, uuid6 } from "@langchain/langgraph-checkpoint";
import { PostgresSaver as LangGraphPostgresSaver } from "@langchain/langgraph-checkpoint-postgres";
import { SqliteSaver as LangGraphSqliteSaver } from "@langchain/langgraph-checkpoint-sqlite";
import pg from "pg";
import { z } from "zod";
import { langGraphRow, ratioTarget } from "./langgraph-row.js";
import type { LoadGuardOptions } from "./load-guard.js";
import { measurePaired } from "./paired.js";
import { type BenchRow, formatNumber } from "./report.js";
import type { ServiceStatus } from "./services.js";
import type { Repetitions } from "./stats.js";

/** Settings of {@link benchCheckpointers}. */
export interface CheckpointersOptions {
  /** Checkpoints put to a fresh thread per sample of 10a. */
  readonly putsPerSample: number;
  /** Graph steps of the thread whose state 10b reads. */
  readonly threadSteps: number;
  /** `getState` calls per sample of 10b. */
  readonly getStatesPerSample: number;
  readonly repetitions: Repetitions;
  readonly guard: LoadGuardOptions;
}

/** One message of about 1 kB: what a crew node typically writes in a step. */
const message = { role: "MarketDataProvider", content: "AAPL closed higher. ".repeat(50) };

interface Contestant {
  /** Puts `count` checkpoints to a fresh thread; resolves when all are stored. */
  put(count: number): Promise<void>;
  /** Reads the state of a thread of `threadSteps` graph steps, `count` times. */
  getState(count: number): Promise<void>;
  close(): Promise<void>;
}

function ourContestant(
  saver: Checkpointer,
  threadSteps: number,
  close: () => Promise<void> | void,
): Contestant {
  const State = defineState({
    counter: z.number().default(0),
    messages: reducer(z.array(z.unknown()), appendReducer, () => []),
  });
  const graph = new FlowStateGraph(State)
    .addNode("step", (state) => ({ counter: state.counter + 1, messages: message }))
    .addEdge(START, "step")
    .addConditionalEdges("step", (state) => (state.counter >= threadSteps ? END : "step"), [
      "step",
      END,
    ])
    .compile({ checkpointer: saver });
  const readThread = { configurable: { thread_id: `state-${randomUUID()}` } };
  let built = false;
  return {
    async put(count) {
      const threadId = `put-${randomUUID()}`;
      for (let seq = 0; seq < count; seq++) {
        const checkpoint: Checkpoint = {
          version: 2,
          threadId,
          id: randomUUID(),
          parentId: null,
          seq,
          runId: "bench",
          createdAt: new Date().toISOString(),
          source: "node",
          node: "step",
          writes: { counter: seq, messages: message },
          frontier: {
            started: ["step"],
            finished: ["step"],
            triggered: ["step"],
            visits: { step: seq },
          },
          snapshotSeq: 0,
          snapshotBytes: 400,
          bytesSinceSnapshot: seq * 400,
          ...(seq === 0
            ? { snapshot: { values: {}, frontier: { pending: ["step"], running: [], visits: {} } } }
            : {}),
          status: "running",
          metadata: {},
        };
        await saver.put(checkpoint);
      }
    },
    async getState(count) {
      if (!built) {
        await graph.invoke({ counter: 0 }, readThread);
        built = true;
      }
      for (let index = 0; index < count; index++) {
        const snapshot = await graph.getState(readThread);
        if (snapshot.values.counter !== threadSteps) throw new Error("ours: wrong state");
      }
    },
    close: async () => close(),
  };
}

function langGraphContestant(
  saver: BaseCheckpointSaver,
  threadSteps: number,
  close: () => Promise<void> | void,
): Contestant {
  const State = Annotation.Root({
    counter: Annotation<number>,
    messages: Annotation<unknown[]>({ reducer: (a, b) => a.concat(b), default: () => [] }),
  });
  const app = new StateGraph(State)
    .addNode("step", (state) => ({ counter: state.counter + 1, messages: [message] }))
    .addEdge(LG_START, "step")
    .addConditionalEdges("step", (state) => (state.counter >= threadSteps ? LG_END : "step"), [
      "step",
      LG_END,
    ])
    .compile({ checkpointer: saver });
  const readThread = { configurable: { thread_id: `state-${randomUUID()}` } };
  let built = false;
  return {
    async put(count) {
      const config = { configurable: { thread_id: `put-${randomUUID()}`, checkpoint_ns: "" } };
      let parent: Parameters<BaseCheckpointSaver["put"]>[0] = config;
      for (let seq = 0; seq < count; seq++) {
        const checkpoint = {
          ...emptyCheckpoint(),
          id: uuid6(-1),
          channel_values: { counter: seq, messages: [message] },
          channel_versions: { counter: seq + 1, messages: seq + 1 },
        };
        parent = await saver.put(
          parent,
          checkpoint,
          { source: "loop", step: seq, parents: {} },
          { counter: seq + 1, messages: seq + 1 },
        );
      }
    },
    async getState(count) {
      if (!built) {
        await app.invoke({ counter: 0 }, { ...readThread, recursionLimit: threadSteps + 10 });
        built = true;
      }
      for (let index = 0; index < count; index++) {
        const snapshot = await app.getState(readThread);
        if (snapshot.values.counter !== threadSteps) throw new Error("LangGraph: wrong state");
      }
    },
    close: async () => close(),
  };
}

/** Ours and LangGraph's saver of one kind, or why the pair cannot run here. */
type SaverPair =
  | { readonly kind: string; readonly ours: Contestant; readonly peer: Contestant }
  | { readonly kind: string; readonly skipped: string };

async function saverPairs(
  dir: string,
  threadSteps: number,
  schema: string,
  postgres: ServiceStatus,
): Promise<SaverPair[]> {
  const pairs: SaverPair[] = [
    {
      kind: "MemorySaver",
      ours: ourContestant(new MemorySaver(), threadSteps, () => undefined),
      peer: langGraphContestant(new LangGraphMemorySaver(), threadSteps, () => undefined),
    },
  ];
  // LangGraph's saver turns on WAL and keeps SQLite's default synchronous level in WAL mode
  // (NORMAL in better-sqlite3's build): our `durability: "normal"` is the like-for-like one.
  const ourSqlite = new SqliteSaver({ path: join(dir, "ours.sqlite"), durability: "normal" });
  const lgSqlite = LangGraphSqliteSaver.fromConnString(join(dir, "langgraph.sqlite"));
  pairs.push({
    kind: "SqliteSaver",
    ours: ourContestant(ourSqlite, threadSteps, () => ourSqlite.close()),
    peer: langGraphContestant(lgSqlite, threadSteps, () => {
      lgSqlite.db.close();
    }),
  });
  if ("skipped" in postgres) {
    pairs.push({ kind: "PostgresSaver", skipped: postgres.skipped });
    return pairs;
  }
  const postgresUrl = postgres.url;
  const ourPostgres = new PostgresSaver({ connectionString: postgresUrl, schema });
  const lgPostgres = LangGraphPostgresSaver.fromConnString(postgresUrl, { schema: `${schema}_lg` });
  try {
    await ourPostgres.setup();
    await lgPostgres.setup();
  } catch (error) {
    await ourPostgres.close();
    await lgPostgres.end();
    pairs.push({
      kind: "PostgresSaver",
      skipped: `the Postgres server refused the savers' setup (${redactSecrets((error as Error).message)})`,
    });
    return pairs;
  }
  pairs.push({
    kind: "PostgresSaver",
    ours: ourContestant(ourPostgres, threadSteps, () => ourPostgres.close()),
    peer: langGraphContestant(lgPostgres, threadSteps, async () => {
      const client = new pg.Client({ connectionString: postgresUrl });
      await client.connect();
      await client.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
      await client.query(`DROP SCHEMA IF EXISTS "${schema}_lg" CASCADE`);
      await client.end();
      await lgPostgres.end();
    }),
  });
  return pairs;
}

/**
 * Item 10 (issues #15, #19): each durable saver against LangGraph.js's of the same kind, paired
 * (10a `put`s per second to a fresh thread, each carrying a ~1 kB message; 10b `getState` per
 * second of a thread of graph steps, through each framework's compiled graph). Without a
 * Postgres server (`postgres` says why) its rows say why they were skipped instead of vanishing.
 */
export async function benchCheckpointers(
  options: CheckpointersOptions,
  postgres: ServiceStatus,
): Promise<BenchRow[]> {
  const { putsPerSample, threadSteps, getStatesPerSample, repetitions, guard } = options;
  const dir = mkdtempSync(join(tmpdir(), "framework-bench-savers-"));
  const schema = `bench_${randomUUID().replaceAll("-", "").slice(0, 10)}`;
  const rate = (count: number, run: (count: number) => Promise<void>) => async () => {
    const started = performance.now();
    await run(count);
    return count / ((performance.now() - started) / 1000);
  };
  const paired = { ...repetitions, better: "higher" as const, guard };
  const perSecond = {
    unit: "/s",
    measure: "rate",
    target: { atLeast: 1, text: "≥ LangGraph's rate (ratio ≥ 1)" },
  } as const;
  const notes: Record<string, string> = {
    SqliteSaver:
      'ours with durability: "normal", like LangGraph\'s WAL default; "full" also syncs ' +
      "every put to disk.",
    PostgresSaver: "the server of `pnpm services:start`, which runs with fsync off.",
  };
  const rows: BenchRow[] = [];
  try {
    for (const pair of await saverPairs(dir, threadSteps, schema, postgres)) {
      const slug = pair.kind.replace("Saver", "").toLowerCase();
      if ("skipped" in pair) {
        for (const [id, what] of [
          ["10a", "put"],
          ["10b", "getState"],
        ] as const) {
          rows.push({
            id: `${id}-${slug}`,
            title: `${pair.kind}: ${what} per second`,
            target: ratioTarget(perSecond.target),
            verdict: "skipped",
            reason: pair.skipped,
          });
        }
        continue;
      }
      try {
        const puts = await measurePaired(
          rate(putsPerSample, pair.ours.put),
          rate(putsPerSample, pair.peer.put),
          paired,
        );
        const reads = await measurePaired(
          rate(getStatesPerSample, pair.ours.getState),
          rate(getStatesPerSample, pair.peer.getState),
          paired,
        );
        const n = formatNumber;
        rows.push(
          langGraphRow({
            ...perSecond,
            id: `10a-${slug}`,
            title: `${pair.kind}: put per second (~1 kB each)`,
            result: puts,
            note: notes[pair.kind],
          }),
          langGraphRow({
            ...perSecond,
            id: `10b-${slug}`,
            title: `${pair.kind}: getState per second, ${n(threadSteps)}-step thread`,
            result: reads,
          }),
        );
      } finally {
        await pair.ours.close();
        await pair.peer.close();
      }
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  return rows;
}
