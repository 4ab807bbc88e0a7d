// Checkpoint savers side by side: `put` per second and `getState` per second for our
// MemorySaver, SqliteSaver and PostgresSaver against LangGraph.js's MemorySaver, SqliteSaver
// and PostgresSaver, on the same SQLite directory and the same Postgres server.
//
//   pnpm --filter @framework/bench bench:checkpointers [--smoke]
//
// Postgres rows need a server: `pnpm services:start` (or FRAMEWORK_TEST_POSTGRES_URL).
import { randomUUID } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { PostgresSaver } from "@framework/checkpoint-postgres";
import { SqliteSaver } from "@framework/checkpoint-sqlite";
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
import { testServiceUrl } from "@framework/testing";
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
import { currentEnvironment, formatNumber } from "./report.js";
import { type Summary, sampleInterleaved } from "./stats.js";

const smoke = process.argv.includes("--smoke");
const putsPerSample = smoke ? 20 : 300;
const threadSteps = smoke ? 5 : 20;
const getStatesPerSample = smoke ? 5 : 100;
const repetitions = smoke ? { warmup: 0, samples: 1 } : { warmup: 1, samples: 7 };

/** One message of about 1 kB: what a crew node typically writes in a step. */
const message = { role: "MarketDataProvider", content: "AAPL closed higher. ".repeat(50) };

interface Contestant {
  /** Puts `count` checkpoints to a fresh thread; resolves when all are stored. */
  put(count: number): Promise<void>;
  /** Reads the state of a thread of `threadSteps` graph steps, `count` times. */
  getState(count: number): Promise<void>;
  close(): Promise<void>;
}

function ourContestant(saver: Checkpointer, close: () => Promise<void> | void): Contestant {
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

async function main(): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), "framework-bench-savers-"));
  const postgresUrl = testServiceUrl("postgres");
  const schema = `bench_${randomUUID().replaceAll("-", "").slice(0, 10)}`;
  const lgSchema = `${schema}_lg`;
  const contestants: Record<string, Contestant> = {
    "ours: MemorySaver": ourContestant(new MemorySaver(), () => undefined),
    "LangGraph: MemorySaver": langGraphContestant(new LangGraphMemorySaver(), () => undefined),
  };
  const ourSqlite = new SqliteSaver({ path: join(dir, "ours.sqlite") });
  contestants["ours: SqliteSaver (durability full)"] = ourContestant(ourSqlite, () =>
    ourSqlite.close(),
  );
  const ourSqliteNormal = new SqliteSaver({
    path: join(dir, "ours-normal.sqlite"),
    durability: "normal",
  });
  contestants["ours: SqliteSaver (durability normal)"] = ourContestant(ourSqliteNormal, () =>
    ourSqliteNormal.close(),
  );
  const lgSqlite = LangGraphSqliteSaver.fromConnString(join(dir, "langgraph.sqlite"));
  contestants["LangGraph: SqliteSaver"] = langGraphContestant(lgSqlite, () => {
    lgSqlite.db.close();
  });
  if (postgresUrl) {
    const ourPostgres = new PostgresSaver({ connectionString: postgresUrl, schema });
    await ourPostgres.setup();
    contestants["ours: PostgresSaver"] = ourContestant(ourPostgres, () => ourPostgres.close());
    const lgPostgres = LangGraphPostgresSaver.fromConnString(postgresUrl, { schema: lgSchema });
    await lgPostgres.setup();
    contestants["LangGraph: PostgresSaver"] = langGraphContestant(lgPostgres, () =>
      lgPostgres.end(),
    );
  } else {
    console.warn("no Postgres server (pnpm services:start): Postgres rows left out");
  }

  const rate = (count: number, run: (count: number) => Promise<void>) => async () => {
    const started = performance.now();
    await run(count);
    return count / ((performance.now() - started) / 1000);
  };
  const names = Object.keys(contestants);
  const puts = await sampleInterleaved(
    Object.fromEntries(names.map((name) => [name, rate(putsPerSample, contestants[name]!.put)])),
    repetitions,
  );
  const getStates = await sampleInterleaved(
    Object.fromEntries(
      names.map((name) => [name, rate(getStatesPerSample, contestants[name]!.getState)]),
    ),
    repetitions,
  );
  for (const contestant of Object.values(contestants)) await contestant.close();
  rmSync(dir, { recursive: true, force: true });
  if (postgresUrl) {
    const client = new pg.Client({ connectionString: postgresUrl });
    await client.connect();
    await client.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
    await client.query(`DROP SCHEMA IF EXISTS "${lgSchema}" CASCADE`);
    await client.end();
  }

  const lines = [
    `| Saver | put/s | getState/s (${threadSteps}-step thread) |`,
    "| --- | ---: | ---: |",
    ...names.map(
      (name) =>
        `| ${name} | ${formatNumber(puts[name]!.median)} | ${formatNumber(getStates[name]!.median)} |`,
    ),
  ];
  console.log(lines.join("\n"));
  if (!smoke) {
    const results: Record<string, { put: Summary; getState: Summary }> = {};
    for (const name of names) results[name] = { put: puts[name]!, getState: getStates[name]! };
    await writeFile(
      new URL("../results-checkpointers.json", import.meta.url),
      `${JSON.stringify(
        {
          generatedAt: new Date().toISOString(),
          environment: currentEnvironment(),
          settings: { putsPerSample, threadSteps, getStatesPerSample, repetitions },
          results,
        },
        null,
        2,
      )}\n`,
    );
  }
}

await main();
