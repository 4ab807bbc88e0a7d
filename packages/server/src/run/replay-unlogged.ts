import type { Checkpointer, StoredCheckpoint } from "@framework/graph";
import type { ServedAssistant } from "../assistant/served-assistant.js";
import type { RunRecord } from "../store/server-store.js";
import type { RunEventLog } from "./run-event-log.js";

/** How many logged events are read at a time when looking for the run's updates. */
const PAGE = 500;

/**
 * The nodes whose checkpoint a previous attempt of `run` wrote but whose update it did not log:
 * a process that died (or lost its lease) between a node's checkpoint and the append of its
 * events. The next attempt continues after those nodes, so without this their updates would
 * never reach the stream. Returns them oldest first, with what each wrote.
 */
export async function unloggedNodeUpdates(
  run: RunRecord,
  checkpointer: Checkpointer,
  log: RunEventLog,
): Promise<{ node: string; writes: Readonly<Record<string, unknown>> }[]> {
  const own: StoredCheckpoint[] = [];
  for await (const checkpoint of checkpointer.list(run.threadId)) {
    if (checkpoint.runId !== run.runId) break;
    own.push(checkpoint);
  }
  const nodes = own
    .reverse()
    .filter((checkpoint) => checkpoint.source === "node" && checkpoint.node !== undefined);
  if (nodes.length === 0) return [];
  const logged: string[] = [];
  for (let after = 0; ; ) {
    const page = await log.read(run.owner, run.runId, after, PAGE);
    for (const event of page) {
      if (event.event !== "updates") continue;
      const [node] = Object.keys(event.data as object);
      if (node !== undefined && node !== "__interrupt__") logged.push(node);
    }
    if (page.length < PAGE) break;
    after = page.at(-1)!.seq;
  }
  // The log holds the updates of the first nodes, in the order their checkpoints were written;
  // anything else means this is not a gap to fill.
  if (logged.some((node, index) => nodes[index]?.node !== node)) return [];
  return nodes
    .slice(logged.length)
    .map((checkpoint) => ({ node: checkpoint.node!, writes: checkpoint.writes }));
}

/** Logs the updates {@link unloggedNodeUpdates} found, as the stream modes ask. */
export async function replayUnloggedUpdates(
  run: RunRecord,
  assistant: ServedAssistant,
  checkpointer: Checkpointer,
  log: RunEventLog,
): Promise<void> {
  const modes = new Set(run.request.streamMode);
  if (!modes.has("updates") && !modes.has("values")) return;
  const missing = await unloggedNodeUpdates(run, checkpointer, log);
  if (missing.length === 0) return;
  if (modes.has("updates")) {
    for (const { node, writes } of missing) {
      log.append(run.runId, "updates", { [node]: assistant.toWire(writes) });
    }
  }
  if (modes.has("values")) {
    const { values } = await assistant.graph.getState({
      configurable: { thread_id: run.threadId },
    });
    log.append(run.runId, "values", assistant.toWire(values));
  }
}
