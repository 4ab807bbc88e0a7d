import { copyFile, mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { langGraphRow } from "./langgraph-row.js";
import type { LoadGuardOptions } from "./load-guard.js";
import {
  type Better,
  type InterleavedResult,
  measureInterleaved,
  measurePaired,
  type Observation,
  type PairedResult,
  pairedResult,
  perPair,
} from "./paired.js";
import { formatNumber, type MeasuredRow, measuredRow, times } from "./report.js";
import { ServerChild, writeProgram } from "./server-children.js";
import {
  createThreads,
  recordAnswers,
  type StreamTimes,
  serverClient,
  streamedSteps,
  streamRun,
  waitRun,
} from "./server-client.js";
import { median, medianEstimate, type Repetitions, timeAsync } from "./stats.js";
import type { Criterion } from "./target.js";

/** Settings of {@link benchServer}. */
export interface ServerBenchOptions {
  /** `runs.wait` calls per sample of 11a, one after the other, each on a fresh thread. */
  readonly waitsPerSample: number;
  /** Streamed runs per sample of 11b, one after the other, each on a fresh thread. */
  readonly streamsPerSample: number;
  /** Clients calling at once in 11c (and filling 11d's threads); the issue says 100. */
  readonly clients: number;
  /** `runs.wait` calls each client of 11c makes per sample, one after the other. */
  readonly runsPerClient: number;
  /** Threads, each with one finished run, 11d weighs a server with; the issue says 1,000. */
  readonly idleThreads: number;
  /**
   * Runs each server serves before 11a–11c measure anything (half `runs.wait`, half streamed,
   * {@link warmupClients} clients at once), so that every side is measured warm, as a
   * deployed server runs, and not while its JIT still compiles what the first runs call.
   */
  readonly warmupRuns: number;
  /** Rounds of 11a and 11b. */
  readonly repetitions: Repetitions;
  /** Rounds of 11c. */
  readonly throughputRepetitions: Repetitions;
  /** Pairs of 11d: each starts both servers afresh. */
  readonly idleRepetitions: Repetitions;
  readonly guard: LoadGuardOptions;
}

/**
 * The contestants of 11a–11c: our server, the same server with its SQLite store and
 * checkpointer in memory (no durable write: what durability costs, not a deployment),
 * LangGraph's, and the floor replaying ours.
 */
type Side = "ours" | "oursInMemory" | Peer;
/** What ours is compared with. */
type Peer = "langGraph" | "floor";

/** What one sample on one server measured. */
interface Measured {
  readonly value: number;
  readonly observed?: Readonly<Record<string, number>>;
}

/** The children's programs, bundled once per run into its directory. */
interface Programs {
  readonly ours: string;
  readonly langGraph: string;
  readonly floor: string;
  /** The graph module LangGraph's server loads, copied into each of its working directories. */
  readonly langGraphGraph: string;
}

async function writePrograms(directory: string): Promise<Programs> {
  const programs = {
    ours: join(directory, "ours.mjs"),
    langGraph: join(directory, "langgraph.mjs"),
    floor: join(directory, "floor.mjs"),
    langGraphGraph: join(directory, "langgraph-graph.mjs"),
  };
  await Promise.all([
    writeProgram("server-ours.ts", programs.ours),
    writeProgram("server-langgraph.ts", programs.langGraph),
    writeProgram("server-floor.ts", programs.floor),
    writeProgram("server-langgraph-graph.ts", programs.langGraphGraph),
  ]);
  return programs;
}

let childDirectories = 0;

/** A fresh working directory under `directory` for one server child. */
async function workingDirectory(directory: string, side: Side): Promise<string> {
  const path = join(directory, `${side}-${++childDirectories}`);
  await mkdir(path);
  return path;
}

/** Our server, over a fresh SQLite file, or with its store and checkpointer in memory. */
async function startOurs(
  programs: Programs,
  directory: string,
  side: "ours" | "oursInMemory" = "ours",
): Promise<ServerChild> {
  const cwd = await workingDirectory(directory, side);
  return side === "ours"
    ? ServerChild.start("our", programs.ours, [cwd], cwd)
    : ServerChild.start("our in-memory", programs.ours, [cwd, "in-memory"], cwd);
}

/** LangGraph's server, in a fresh working directory holding its graph module. */
async function startLangGraph(programs: Programs, directory: string): Promise<ServerChild> {
  const cwd = await workingDirectory(directory, "langGraph");
  await copyFile(programs.langGraphGraph, join(cwd, "graph.mjs"));
  return ServerChild.start("LangGraph's", programs.langGraph, [cwd], cwd);
}

/** The floor, replaying what our server at `oursUrl` answers. */
async function startFloor(
  programs: Programs,
  directory: string,
  oursUrl: string,
): Promise<ServerChild> {
  const cwd = await workingDirectory(directory, "floor");
  const answers = join(cwd, "answers.json");
  await writeFile(answers, JSON.stringify(await recordAnswers(oursUrl)));
  return ServerChild.start("the floor's", programs.floor, [answers], cwd);
}

/**
 * Measures `server` while it is the only server child running (the others stay paused), and
 * reports the value with the child's memory: its peak RSS and its heap at the end.
 */
async function onServer(
  server: ServerChild,
  measure: (server: ServerChild) => Promise<Measured>,
): Promise<Observation> {
  server.resume();
  try {
    const { value, observed } = await measure(server);
    const memory = await server.memory(false);
    return {
      value,
      ...(observed ? { observed } : {}),
      memory: { heapMb: memory.heapMb, rssMb: memory.peakRssMb },
    };
  } finally {
    server.pause();
  }
}

const mean = (values: readonly number[]) =>
  values.reduce((sum, value) => sum + value, 0) / values.length;

/**
 * 11a: mean milliseconds of `count` `runs.wait` calls in a row, each on a fresh thread;
 * observed beside it, per call, the time the server spent on the request (from its arrival to
 * its answer's end) and the server process's CPU time.
 */
async function waitRoundTrips(server: ServerChild, count: number): Promise<Measured> {
  const client = serverClient(server.url);
  const threads = await createThreads(client, count);
  const before = await server.work();
  const ms: number[] = [];
  for (const thread of threads) ms.push(await timeAsync(() => waitRun(client, thread)));
  const after = await server.work();
  return {
    value: mean(ms),
    observed: {
      serverMs: (after.serverMs - before.serverMs) / count,
      serverCpuMs: (after.cpuMs - before.cpuMs) / count,
    },
  };
}

/**
 * 11b: mean times of `count` streamed runs in a row, each on a fresh thread, to the first
 * event, the last and the end (observed); the value is the last event's.
 */
async function streamedRuns(server: ServerChild, count: number): Promise<Measured> {
  const client = serverClient(server.url);
  const threads = await createThreads(client, count);
  const runs: StreamTimes[] = [];
  for (const thread of threads) runs.push(await streamRun(client, thread));
  const observed: Record<keyof StreamTimes, number> = {
    firstMs: mean(runs.map((run) => run.firstMs)),
    lastMs: mean(runs.map((run) => run.lastMs)),
    closeMs: mean(runs.map((run) => run.closeMs)),
  };
  return { value: observed.lastMs, observed };
}

/**
 * What a `runs.wait` run of our server's graph costs with no server in the way: run in our
 * server's own process (see `server-ours.ts`), `warmupRuns` runs first, then the median of
 * `samples` samples of `runs` runs, in ms per run.
 */
async function graphAloneMs(
  ours: ServerChild,
  { warmupRuns, samples, runs }: { warmupRuns: number; samples: number; runs: number },
): Promise<number> {
  ours.resume();
  try {
    await ours.graphAlone(warmupRuns);
    const perRun: number[] = [];
    for (let sample = 0; sample < samples; sample++) perRun.push(await ours.graphAlone(runs));
    return median(perRun);
  } finally {
    ours.pause();
  }
}

/** Clients at once serving the warm-up runs. */
const warmupClients = 20;

/** Serves `runs` runs on `server`, half waited for and half streamed, on fresh threads. */
async function warmUp(server: ServerChild, runs: number): Promise<void> {
  server.resume();
  try {
    const client = serverClient(server.url);
    const threads = await createThreads(client, runs);
    let next = 0;
    await Promise.all(
      Array.from({ length: Math.min(warmupClients, runs) }, async () => {
        while (next < threads.length) {
          const index = next++;
          if (index % 2 === 0) await waitRun(client, threads[index]!);
          else await streamRun(client, threads[index]!);
        }
      }),
    );
  } finally {
    server.pause();
  }
}

/** Runs `runs.wait` once on each of `threads`, `clients` clients at once, each one run at a time. */
async function concurrentWaits(url: string, threads: readonly string[], clients: number) {
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(clients, threads.length) }, async () => {
      const client = serverClient(url);
      while (next < threads.length) await waitRun(client, threads[next++]!);
    }),
  );
}

/** 11c: runs per second of `clients` clients calling at once, `runsPerClient` runs each. */
async function throughput(server: ServerChild, options: ServerBenchOptions): Promise<Measured> {
  const { clients, runsPerClient } = options;
  const threads = await createThreads(serverClient(server.url), clients * runsPerClient);
  const ms = await timeAsync(() => concurrentWaits(server.url, threads, clients));
  return { value: threads.length / (ms / 1000) };
}

/**
 * 11d: a fresh server's RSS once `idleThreads` threads each got one finished run (from
 * `clients` clients at once), after a garbage collection; observed beside it, the RSS before,
 * the growth and the heap. The server is stopped afterwards.
 */
async function idleThreadsMemory(
  start: () => Promise<ServerChild>,
  options: ServerBenchOptions,
): Promise<Observation> {
  const server = await start();
  try {
    const before = await server.memory(true);
    const threads = await createThreads(serverClient(server.url), options.idleThreads);
    await concurrentWaits(server.url, threads, options.clients);
    const after = await server.memory(true);
    return {
      value: after.rssMb,
      observed: {
        rssBeforeMb: before.rssMb,
        growthMb: after.rssMb - before.rssMb,
        heapMb: after.heapMb,
      },
      memory: { heapMb: after.heapMb, rssMb: after.peakRssMb },
    };
  } finally {
    await server.stop();
  }
}

/**
 * Ours (or `side`) paired with `other` from rounds of all contestants, on the values or on
 * `observed`.
 */
function pairOf(
  result: InterleavedResult<Side>,
  other: Peer,
  better: Better,
  { observed, side = "ours" }: { observed?: string; side?: "ours" | "oursInMemory" } = {},
): PairedResult {
  const { contestants, load } = result;
  return pairedResult(contestants[side], contestants[other], better, load, observed);
}

const floorLabel = "floor: a bare Hono route sending our bytes";
/** The target: at most this many times the floor's latency per run. */
const floorTarget = 1.5;

/** One time a floor row compares: its metric, its words, and the pairs measuring it. */
interface FloorComparison {
  readonly metric: string;
  readonly label: string;
  readonly result: PairedResult;
  /** `false` for a comparison reported beside the target, not held to it. */
  readonly judged?: false;
}

/**
 * A row holding ours against the floor: for each time compared, ours ÷ the floor's pair by
 * pair, whose whole interval must stay at or under {@link floorTarget} unless the comparison
 * is not judged. The first comparison gives the row's times.
 */
function floorRow(
  id: string,
  title: string,
  [main, ...others]: readonly [FloorComparison, ...FloorComparison[]],
  note: string,
): MeasuredRow {
  const compared = [main, ...others];
  const metrics = Object.fromEntries(
    compared.map(({ metric, result }) => [
      metric,
      medianEstimate(
        perPair(result, (ours, floor) => ours / floor),
        "×",
      ),
    ]),
  );
  const criteria: Criterion[] = compared
    .filter(({ judged }) => judged !== false)
    .map(({ metric }) => ({ metric, comparator: "<=", threshold: floorTarget }));
  return measuredRow({
    id,
    title,
    ours: { value: main.result.ours.median, unit: "ms" },
    reference: { value: main.result.peer.median, unit: "ms", label: floorLabel },
    ratio: compared
      .map(({ metric, label }) => `ours ÷ floor ${times(metrics[metric]!.value)} (${label})`)
      .join("; "),
    target: {
      text: `≤ ${formatNumber(floorTarget)}× the floor's latency per run`,
      criteria,
    },
    metrics,
    load: main.result.load,
    memory: main.result.memory,
    note,
    details: Object.fromEntries(compared.map(({ metric, result }) => [metric, result])),
  });
}

/** Where the issue names no number against LangGraph's server, the suite's usual target. */
const noWorseThanLangGraph = { atLeast: 1, text: "≤ LangGraph's (ratio ≥ 1)" };

/** How a floor row names its comparison of ours with SQLite in memory, which it does not judge. */
const inMemoryLabel = "SQLite in memory, not judged";
const inMemoryNote =
  "Ours with SQLite in memory is the same server with its store and checkpointer in memory, " +
  "in the same rounds: no durable write, so no restart safety; it shows what the writes cost " +
  "and is held to no target.";

const langGraphWaits =
  "LangGraph's server ends a run's answer only once no event came for 500 ms, and its " +
  "workers poll for new runs up to 1 s apart: both are measured as they are.";

/** The rows of 11a–11d from what was measured. */
function serverRows(
  options: ServerBenchOptions,
  measured: {
    readonly waits: InterleavedResult<Side>;
    readonly streams: InterleavedResult<Side>;
    readonly rates: InterleavedResult<Side>;
    readonly idle: PairedResult;
    readonly graphAloneMs: number;
  },
): MeasuredRow[] {
  const { waits, streams, rates, idle, graphAloneMs } = measured;
  const n = formatNumber;
  const inServer = (side: Side, key: "serverMs" | "serverCpuMs") =>
    n(waits.contestants[side].observed[key]?.median ?? Number.NaN);
  const timeRow = (id: string, title: string, result: PairedResult, note: string) =>
    langGraphRow({
      id,
      title,
      result,
      unit: "ms",
      measure: "time",
      target: noWorseThanLangGraph,
      note,
    });
  const stream = (other: Peer, time: keyof StreamTimes) =>
    pairOf(streams, other, "lower", { observed: time });
  const steps = `${streamedSteps}-step streamed run`;
  const idleGrowth = (side: "ours" | "peer") => n(idle.observed[side].growthMb?.median ?? 0);
  return [
    timeRow(
      "11a",
      "Server: runs.wait round trip, two-node graph",
      pairOf(waits, "langGraph", "lower"),
      `LangGraph's SDK client in the bench's process, each server in a process of its own ` +
        `(the others paused meanwhile), measured warm: each first served ` +
        `${n(options.warmupRuns)} runs (half waited for, half streamed, ${warmupClients} ` +
        `clients at once); the mean of ${n(options.waitsPerSample)} calls in a ` +
        `row, each on a fresh thread made beforehand. ${langGraphWaits}`,
    ),
    floorRow(
      "11a-floor",
      "Server: runs.wait round trip vs the floor",
      [
        { metric: "overFloor", label: "round trip", result: pairOf(waits, "floor", "lower") },
        {
          metric: "inMemoryOverFloor",
          label: `round trip, ${inMemoryLabel}`,
          result: pairOf(waits, "floor", "lower", { side: "oursInMemory" }),
          judged: false,
        },
      ],
      "the floor answers each request with the bytes (status, headers, body) our server " +
        "answered the same request with, recorded once; it reads the request and does " +
        `nothing else. Where a round trip goes (medians per call): our server spent ` +
        `${inServer("ours", "serverMs")} ms on the request (its process's CPU: ` +
        `${inServer("ours", "serverCpuMs")} ms), the floor ${inServer("floor", "serverMs")} ms ` +
        `(CPU ${inServer("floor", "serverCpuMs")} ms), ours with SQLite in memory ` +
        `${inServer("oursInMemory", "serverMs")} ms (CPU ${inServer("oursInMemory", "serverCpuMs")} ` +
        `ms); the same graph with its three SQLite checkpoints, run in our server's process with ` +
        `no server in the way, takes ${n(graphAloneMs)} ms. ${inMemoryNote}`,
    ),
    timeRow(
      "11b-first",
      `Server: ${steps}, to its first event`,
      stream("langGraph", "firstMs"),
      `runs.stream in updates mode on a fresh thread, the mean of ` +
        `${n(options.streamsPerSample)} runs in a row; the first event is the run's metadata.`,
    ),
    timeRow(
      "11b-last",
      `Server: ${steps}, to its last event`,
      stream("langGraph", "lastMs"),
      "the last event is the last step's update: the run's output is all there.",
    ),
    timeRow(
      "11b-close",
      `Server: ${steps}, to the stream's end`,
      stream("langGraph", "closeMs"),
      `until the SDK's iterator ends. With our server that includes the SDK's GET of the run ` +
        `to check it is over, made because our answer carries a Location to rejoin from. ` +
        langGraphWaits,
    ),
    floorRow(
      "11b-floor",
      `Server: ${steps} vs the floor`,
      [
        { metric: "lastOverFloor", label: "last event", result: stream("floor", "lastMs") },
        { metric: "closeOverFloor", label: "end", result: stream("floor", "closeMs") },
        {
          metric: "inMemoryLastOverFloor",
          label: `last event, ${inMemoryLabel}`,
          result: pairOf(streams, "floor", "lower", { observed: "lastMs", side: "oursInMemory" }),
          judged: false,
        },
      ],
      "the floor sends the frames our server sent for the same run, recorded once, all at " +
        "once, and answers the SDK's GET of the run with our recorded answer.",
    ),
    {
      ...langGraphRow({
        id: "11c",
        title: `Server: ${n(options.clients)} clients at once, runs.wait`,
        result: pairOf(rates, "langGraph", "higher"),
        unit: "runs/s",
        measure: "rate",
        target: { atLeast: 3, text: "≥ 3× LangGraph's server throughput" },
        note:
          `${n(options.clients)} SDK clients, each calling runs.wait ` +
          `${n(options.runsPerClient)} times in a row on threads made beforehand; runs ` +
          `finished per second of wall time. The floor's rate is the reference: what the ` +
          `client and HTTP allow here. Ours with SQLite in memory: ` +
          `${n(rates.contestants.oursInMemory.values.median)} runs/s. ${langGraphWaits}`,
      }),
      reference: {
        value: rates.contestants.floor.values.median,
        unit: "runs/s",
        label: floorLabel,
      },
    },
    langGraphRow({
      id: "11d",
      title: `Server: RSS with ${n(options.idleThreads)} idle threads`,
      result: idle,
      unit: "MB",
      measure: "time",
      target: noWorseThanLangGraph,
      note:
        `a fresh server per pair; ${n(options.idleThreads)} threads each get one finished ` +
        `runs.wait run (${n(options.clients)} clients at once), then the server's RSS after ` +
        `a garbage collection. Ours keeps threads in SQLite (its page cache counts), ` +
        `LangGraph's in memory. Growth over the fresh server: ours ${idleGrowth("ours")} MB, ` +
        `LangGraph ${idleGrowth("peer")} MB.`,
    }),
  ];
}

/**
 * Item 11 (issue #27): our server (`@framework/server` over SQLite) against LangGraph's open
 * server (`@langchain/langgraph-api`'s `startServer`, in memory), each serving the same
 * two-node graph in a process of its own and called with LangGraph's own SDK client from this
 * process; and against the floor, a bare Hono route answering the bytes our server answers.
 * 11a: a `runs.wait` round trip; 11b: a streamed run of ten steps, to its first event, its
 * last and the response's end; 11c: runs per second of many clients at once; 11d: a server's
 * RSS holding 1,000 idle threads.
 */
export async function benchServer(options: ServerBenchOptions): Promise<MeasuredRow[]> {
  const directory = await mkdtemp(join(tmpdir(), "bench-server-"));
  const running: ServerChild[] = [];
  try {
    const programs = await writePrograms(directory);
    const ours = await startOurs(programs, directory);
    running.push(ours);
    const oursInMemory = await startOurs(programs, directory, "oursInMemory");
    running.push(oursInMemory);
    const floor = await startFloor(programs, directory, ours.url);
    running.push(floor);
    const langGraph = await startLangGraph(programs, directory);
    running.push(langGraph);
    for (const server of running) server.pause();
    for (const server of running) await warmUp(server, options.warmupRuns);
    const servers: Readonly<Record<Side, ServerChild>> = { ours, oursInMemory, langGraph, floor };
    const onEach = (measure: (server: ServerChild) => Promise<Measured>) =>
      Object.fromEntries(
        Object.entries(servers).map(([side, server]) => [side, () => onServer(server, measure)]),
      ) as Record<Side, () => Promise<Observation>>;
    const rounds = {
      ...options.repetitions,
      gcBeforeSample: true,
      guard: options.guard,
      memory: "reported",
    } as const;
    const waits = await measureInterleaved(
      onEach((server) => waitRoundTrips(server, options.waitsPerSample)),
      rounds,
    );
    const graphAlone = await graphAloneMs(ours, {
      warmupRuns: options.warmupRuns,
      samples: options.repetitions.samples,
      runs: options.waitsPerSample,
    });
    const streams = await measureInterleaved(
      onEach((server) => streamedRuns(server, options.streamsPerSample)),
      rounds,
    );
    const rates = await measureInterleaved(
      onEach((server) => throughput(server, options)),
      { ...rounds, ...options.throughputRepetitions },
    );
    await Promise.all(running.splice(0).map((server) => server.stop()));

    const idle = await measurePaired(
      () => idleThreadsMemory(() => startOurs(programs, directory), options),
      () => idleThreadsMemory(() => startLangGraph(programs, directory), options),
      { ...options.idleRepetitions, better: "lower", guard: options.guard, memory: "reported" },
    );
    return serverRows(options, { waits, streams, rates, idle, graphAloneMs: graphAlone });
  } finally {
    await Promise.all(running.map((server) => server.stop()));
    await rm(directory, { recursive: true, force: true });
  }
}
