import { randomUUID } from "node:crypto";
import type { Checkpoint, StoredCheckpoint } from "../checkpoint/checkpoint.js";
import {
  CheckpointWriter,
  positionAfter,
  type ThreadPoint,
  updateCheckpoint,
} from "../checkpoint/checkpoint-format.js";
import type { Checkpointer } from "../checkpoint/checkpointer.js";
import type { SnapshotPolicy } from "../checkpoint/snapshot-policy.js";
import { checkpointMetadataOf, type GraphConfig } from "../config/graph-config.js";
import { UnknownNodeError } from "../error/unknown-node-error.js";
import type { StateEngine, StateRecord } from "../state/state-engine.js";
import type { GraphTopology } from "../topology/graph-topology.js";
import { routeFrom } from "../topology/route-from.js";

/** The writer `StateValidationError` names for an update made from outside any node. */
export const UPDATE_WRITER = "__update__";

/** One `updateState` call: the thread as it stands, and what to write on it. */
export interface ThreadUpdate {
  readonly engine: StateEngine;
  readonly topology: GraphTopology;
  readonly checkpointer: Checkpointer;
  readonly snapshotPolicy: SnapshotPolicy;
  readonly config: GraphConfig;
  readonly threadId: string;
  /** The thread's newest checkpoint: the update goes after it. */
  readonly latest: StoredCheckpoint | undefined;
  /** The point updated (the newest, or an older one for a fork); none on a thread never run. */
  readonly point: ThreadPoint | undefined;
  readonly update: unknown;
  readonly asNode: string | undefined;
}

/**
 * Writes the checkpoint of an update: `update` validated and merged through the state's
 * reducers as `asNode`'s would be, and, with `asNode`, that node ended (its routers decide on
 * the updated state). Nothing is written when the update or a router is refused.
 *
 * @throws UnknownNodeError when `asNode` is not a node of the graph, StateValidationError when
 *   the update does not fit the state, NodeExecutionError or GraphValidationError from a
 *   router, whatever the checkpointer's `put` throws (`CheckpointConflictError` when a run
 *   wrote the thread meanwhile).
 */
export async function updateThread(update: ThreadUpdate): Promise<Checkpoint> {
  const { engine, topology, config, point, asNode } = update;
  if (asNode !== undefined && !topology.nodes.has(asNode)) {
    throw new UnknownNodeError({ node: asNode, nodes: [...topology.nodes.keys()] });
  }
  const draft = engine.draft(point?.values ?? engine.initialValues());
  const staged = engine.stage(draft, update.update, asNode ?? UPDATE_WRITER);
  let merged: StateRecord | undefined;
  const state = () => {
    merged ??= engine.readStaged(draft, staged);
    return merged;
  };
  const targets =
    asNode === undefined
      ? []
      : await routeFrom(topology, asNode, state, {
          signal: config.signal ?? new AbortController().signal,
          config,
        });
  const values = state();
  const written = updateCheckpoint(
    point,
    staged.writes,
    asNode === undefined ? undefined : { node: asNode, targets },
  );
  const base = point?.checkpoint;
  const writer = new CheckpointWriter({
    checkpointer: update.checkpointer,
    threadId: update.threadId,
    runId: continuesRun(point, asNode)
      ? base!.runId
      : (config.configurable?.run_id ?? randomUUID()),
    metadata: checkpointMetadataOf(config),
    policy: update.snapshotPolicy,
    position: positionAfter(update.latest, base),
  });
  return writer.write(written.step, written.delta, () => ({
    values,
    frontier: written.frontier,
  }));
}

/**
 * Whether the update belongs to the run of the checkpoint updated, keeping its id (so the
 * nodes left running keep their idempotency keys and questions their ids): it does when that
 * run is unfinished and the update does not move it, or moves it from a node it was about to
 * run or running. A node an update ends anywhere else may trigger nodes whose visits the run
 * no longer counts (nodes upstream of every active one), which under the same run id would
 * repeat earlier visits' idempotency keys: that update starts a new run id.
 */
function continuesRun(point: ThreadPoint | undefined, asNode: string | undefined): boolean {
  if (!point || point.checkpoint.status === "done") return false;
  return asNode === undefined || point.running.includes(asNode) || point.pending.includes(asNode);
}
