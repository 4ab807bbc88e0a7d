import type { StateSnapshot } from "@framework/graph";
import type { ServedAssistant } from "../assistant/served-assistant.js";
import type { ThreadStateView } from "../run/thread-state.js";
import { interruptsByNode } from "../run/wire-interrupt.js";
import type { RunRecord, ThreadRecord } from "../store/server-store.js";

/** An assistant as the protocol shows it. Served assistants exist as long as the server. */
export function wireAssistant(assistant: ServedAssistant, since: string) {
  return {
    assistant_id: assistant.assistantId,
    graph_id: assistant.graphId,
    name: assistant.graphId,
    description: assistant.description ?? null,
    config: {},
    context: {},
    metadata: { created_by: "system", kind: assistant.kind },
    version: 1,
    created_at: since,
    updated_at: since,
  };
}

/** A thread as the protocol shows it, with its current values when it has a state. */
export function wireThread(thread: ThreadRecord, state: ThreadStateView | undefined) {
  return {
    thread_id: thread.threadId,
    created_at: thread.createdAt,
    updated_at: thread.updatedAt,
    state_updated_at: state?.snapshot.checkpoint?.createdAt ?? thread.updatedAt,
    metadata: thread.metadata,
    status: thread.status,
    values: state ? state.values : null,
    interrupts: state ? interruptsByNode(state.interrupts) : {},
    config: {},
    error: state?.snapshot.error
      ? { type: state.snapshot.error.name, message: state.snapshot.error.message }
      : null,
  };
}

/** A run as the protocol shows it; `kwargs` holds what it was asked to do. */
export function wireRun(run: RunRecord) {
  const { request } = run;
  return {
    run_id: run.runId,
    thread_id: run.threadId,
    assistant_id: run.assistantId,
    created_at: run.createdAt,
    updated_at: run.updatedAt,
    status: run.status,
    metadata: run.metadata,
    multitask_strategy: run.multitaskStrategy,
    kwargs: {
      input: request.input,
      command: request.resume === undefined ? null : { resume: request.resume },
      config: request.config,
      stream_mode: [...request.streamMode],
      on_disconnect: request.onDisconnect,
      checkpoint_id: request.checkpointId,
      temporary: request.temporary,
      webhook: request.webhook ?? null,
    },
  };
}

function checkpointRef(threadId: string, checkpointId: string | null) {
  return {
    thread_id: threadId,
    checkpoint_ns: "",
    checkpoint_id: checkpointId,
    checkpoint_map: null,
  };
}

/** A thread's state at one checkpoint, as the protocol shows it. */
export function wireThreadState(threadId: string, view: ThreadStateView) {
  const { snapshot } = view;
  const checkpoint = snapshot.checkpoint;
  return {
    values: view.values,
    next: [...snapshot.next],
    checkpoint: checkpointRef(threadId, checkpoint?.id ?? null),
    metadata: checkpoint ? checkpointMetadata(snapshot) : {},
    created_at: checkpoint?.createdAt ?? null,
    parent_checkpoint: checkpoint?.parentId ? checkpointRef(threadId, checkpoint.parentId) : null,
    tasks: snapshot.next.map((node) => ({
      id: `${checkpoint?.id ?? "start"}:${node}`,
      name: node,
      error: null,
      interrupts: view.interrupts.filter((interrupt) => interrupt.ns[0] === node),
      checkpoint: null,
      state: null,
    })),
    interrupts: [...view.interrupts],
  };
}

function checkpointMetadata(snapshot: StateSnapshot) {
  const checkpoint = snapshot.checkpoint!;
  return {
    ...checkpoint.metadata,
    // LangGraph's sources: an update from outside a run is its "update".
    source:
      checkpoint.source === "input" || checkpoint.source === "update" ? checkpoint.source : "loop",
    step: checkpoint.seq,
    run_id: checkpoint.runId,
    ...(checkpoint.node === undefined ? {} : { writes: { [checkpoint.node]: null } }),
    status: snapshot.status,
    parents: {},
  };
}
