import { defineState, END, FlowStateGraph, MemorySaver, START } from "@framework/graph";
import {
  Annotation,
  MemorySaver as LangGraphMemorySaver,
  END as LG_END,
  START as LG_START,
  StateGraph,
} from "@langchain/langgraph";
import { z } from "zod";
import type { LoadGuardOptions } from "./load-guard.js";
import { measurePaired, type Observation, ratioEstimate } from "./paired.js";
import { formatNumber, type MeasuredRow, measuredRow, type Quantity, times } from "./report.js";
import { medianEstimate, type Repetitions } from "./stats.js";
import { target } from "./target.js";

/** Settings of {@link benchCheckpointGrowth}. */
export interface CheckpointGrowthOptions {
  /** Node runs in the thread; the issue says 1,000. */
  readonly steps: number;
  /** Sizes of the large key nobody writes after the input; two, to show growth ignores it. */
  readonly documentBytes: readonly [small: number, large: number];
  /** Pairs: the bytes do not vary from run to run, so one says what there is to say. */
  readonly repetitions: Repetitions;
  readonly guard: LoadGuardOptions;
}

/** Bytes held for a thread after `steps` node runs, each changing only a small counter. */
type ThreadBytes = (threadId: string, steps: number, document: string) => Promise<number>;

/** Ours: a one-node loop over `{ counter, document }` with our `MemorySaver`. */
function ourThread(): ThreadBytes {
  const State = defineState({
    counter: z.number().default(0),
    document: z.string().default(""),
  });
  const saver = new MemorySaver();
  const graph = new FlowStateGraph(State);
  graph.addNode("step", (state) => ({ counter: state.counter + 1 }));
  graph.addEdge(START, "step");
  let limit = 0;
  graph.addConditionalEdges("step", (state) => (state.counter >= limit ? END : "step"), [
    "step",
    END,
  ]);
  const app = graph.compile({ checkpointer: saver });
  return async (threadId, steps, document) => {
    limit = steps;
    const state = await app.invoke(
      { counter: 0, document },
      { configurable: { thread_id: threadId }, stepLimit: steps },
    );
    if (state.counter !== steps) throw new Error(`our loop stopped at ${state.counter}`);
    return saver.storedBytes(threadId);
  };
}

const textBytes = (text: string | undefined) => (text ? Buffer.byteLength(text) : 0);

/**
 * What LangGraph's `MemorySaver` holds for a thread: its serialized checkpoints, metadata and
 * pending writes, plus the ids and channel names stored beside them (object keys excluded,
 * as they repeat those ids).
 */
function langGraphStoredBytes(saver: LangGraphMemorySaver, threadId: string): number {
  let total = 0;
  for (const checkpoints of Object.values(saver.storage[threadId] ?? {})) {
    for (const [checkpoint, metadata, parentId] of Object.values(checkpoints)) {
      total += checkpoint.byteLength + metadata.byteLength + textBytes(parentId);
    }
  }
  for (const [key, writes] of Object.entries(saver.writes)) {
    if ((JSON.parse(key) as unknown[])[0] !== threadId) continue;
    for (const [taskId, channel, value, taskPath] of Object.values(writes)) {
      total += textBytes(taskId) + textBytes(channel) + value.byteLength + textBytes(taskPath);
    }
  }
  return total;
}

/** LangGraph.js: the same loop as a `StateGraph` with its `MemorySaver`. */
function langGraphThread(): ThreadBytes {
  const State = Annotation.Root({ counter: Annotation<number>, document: Annotation<string> });
  const saver = new LangGraphMemorySaver();
  let limit = 0;
  const app = new StateGraph(State)
    .addNode("step", (state) => ({ counter: state.counter + 1 }))
    .addEdge(LG_START, "step")
    .addConditionalEdges("step", (state) => (state.counter >= limit ? LG_END : "step"), [
      "step",
      LG_END,
    ])
    .compile({ checkpointer: saver });
  return async (threadId, steps, document) => {
    limit = steps;
    const state = await app.invoke(
      { counter: 0, document },
      { configurable: { thread_id: threadId }, recursionLimit: steps + 10 },
    );
    if (state.counter !== steps) throw new Error(`LangGraph's loop stopped at ${state.counter}`);
    return langGraphStoredBytes(saver, threadId);
  };
}

/** Bytes after the full thread, and growth per step measured between half and full length. */
interface Growth {
  readonly bytes: number;
  readonly bytesPerStep: number;
}

async function growth(thread: ThreadBytes, steps: number, document: string): Promise<Growth> {
  const half = Math.floor(steps / 2);
  const id = `${document.length}`;
  const atHalf = await thread(`half-${id}`, half, document);
  const bytes = await thread(`full-${id}`, steps, document);
  return { bytes, bytesPerStep: (bytes - atHalf) / (steps - half) };
}

/**
 * One sample of a side: growth per step with the large untouched key (the value compared),
 * and what the small one gives, on a fresh saver so samples neither share nor pile up threads.
 */
async function sample(
  makeThread: () => ThreadBytes,
  steps: number,
  [small, large]: readonly [string, string],
): Promise<Observation> {
  const thread = makeThread();
  const withSmall = await growth(thread, steps, small);
  const withLarge = await growth(thread, steps, large);
  return {
    value: withLarge.bytesPerStep,
    observed: {
      bytes: withLarge.bytes,
      smallBytes: withSmall.bytes,
      smallBytesPerStep: withSmall.bytesPerStep,
    },
  };
}

function bytesQuantity(bytes: number): Quantity {
  return bytes >= 1e6 ? { value: bytes / 1e6, unit: "MB" } : { value: bytes / 1e3, unit: "kB" };
}

const perStep = (bytes: number) => `${formatNumber(bytes)} B/step`;

/**
 * Item 6: bytes held by the in-memory checkpointer after a thread of `steps` node runs whose
 * state has one large key written once (the input) and one small counter changed at every
 * step. Growth per step is measured for two sizes of the large key: growth linear in the
 * state changed per step, not in the whole state, means it does not move with that size.
 */
export async function benchCheckpointGrowth({
  steps,
  documentBytes,
  repetitions,
  guard,
}: CheckpointGrowthOptions): Promise<MeasuredRow> {
  const documents = documentBytes.map((size) => "x".repeat(size)) as [string, string];
  const result = await measurePaired(
    () => sample(ourThread, steps, documents),
    () => sample(langGraphThread, steps, documents),
    { ...repetitions, better: "lower", guard },
  );
  const { ours, peer } = result.observed;
  // Growth that stores the whole state every step moves by the size difference. Ours stores
  // it in a snapshot once the steps since the last one outweigh it (snapshotRatio), so its
  // share per step follows the steps, not the state; only where the measured half of the
  // thread cuts the snapshot intervals depends on the state's size: at most one snapshot of
  // either size more or less in that half.
  const drift = medianEstimate(
    result.ours.samples.map((large, index) =>
      Math.abs(large - ours.smallBytesPerStep!.samples[index]!),
    ),
    "B/step",
  );
  const oneSnapshotPerHalf =
    (documentBytes[0] + documentBytes[1]) / (steps - Math.floor(steps / 2));
  const changedBytes = Buffer.byteLength(JSON.stringify({ counter: steps }));
  return measuredRow({
    id: "6",
    title: `Checkpoint bytes after a ${formatNumber(steps)}-step thread, ${formatNumber(documentBytes[1] / 1000)} kB key untouched`,
    ours: bytesQuantity(ours.bytes!.median),
    langGraph: bytesQuantity(peer.bytes!.median),
    ratio:
      `growth ${perStep(result.ours.median)} vs LangGraph ${perStep(result.peer.median)} ` +
      `(${times(result.ratio)})`,
    target: target(
      "growth linear in the state changed per step, whatever the state's size (± one " +
        `snapshot: drift ≤ ${formatNumber(oneSnapshotPerHalf)} B/step)`,
      "drift",
      "<=",
      oneSnapshotPerHalf,
    ),
    metrics: { drift, ratio: ratioEstimate(result) },
    load: result.load,
    memory: result.memory,
    note:
      `each step changes ~${changedBytes} bytes of state. With the untouched key at ` +
      `${formatNumber(documentBytes[0] / 1000)} kB instead, growth is ` +
      `${perStep(ours.smallBytesPerStep!.median)} for ours and ` +
      `${perStep(peer.smallBytesPerStep!.median)} for LangGraph: ours stores each ` +
      "step's writes plus a fixed envelope (ids, time, frontier delta), and the whole state " +
      "once the steps since the last snapshot weigh twice as much (snapshots add at most half " +
      "the steps' bytes, and a read stays under three snapshots' bytes); LangGraph stores " +
      "every channel's value at every step. The drift is how far our growth moves between " +
      "the two sizes; bytes do not vary from run to run, so its interval is a point.",
    details: { steps, documentBytes, changedBytes, oneSnapshotPerHalf, ...result },
  });
}
