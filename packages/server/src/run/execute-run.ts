import { AbortedError, type AgentEvent, FrameworkError, redactSecrets } from "@framework/core";
import type {
  CompiledGraph,
  GraphConfig,
  GraphEvent,
  StateRecord,
  StateSnapshot,
} from "@framework/graph";
import { agentMessageId } from "../assistant/agent-graph.js";
import type { ServedAssistant } from "../assistant/served-assistant.js";
import type { JsonObject, RunEventInput, RunFailure, RunRecord } from "../store/server-store.js";
import type { RunEventLog } from "./run-event-log.js";
import { type WireInterrupt, wireInterrupts } from "./wire-interrupt.js";

/** What a compiled graph takes as input. */
type GraphInput = Parameters<CompiledGraph["stream"]>[0];

/** How a run ended: its events are durable, but for its last ones, which it carries. */
export interface RunOutcome {
  readonly status: "success" | "interrupted" | "error";
  /** The thread's state at the end, as the wire shows it (with `__interrupt__` when waiting). */
  readonly values: JsonObject;
  readonly error: RunFailure | null;
  readonly interrupts: readonly WireInterrupt[];
  /** The run's last events, not yet written: the run's end logs them as it is recorded. */
  readonly events: readonly RunEventInput[];
}

/** What one execution of a run needs. */
export interface RunExecution {
  readonly run: RunRecord;
  readonly assistant: ServedAssistant;
  /** The graph input: the request's input, a `resume(...)`, or `null` to continue. */
  readonly input: unknown;
  /** Time travel: start from this checkpoint (first attempt only). */
  readonly checkpointId: string | null;
  readonly log: RunEventLog;
  /** Stops the run: a cancel, or the server shutting down once its grace period is over. */
  readonly signal: AbortSignal;
  /**
   * Drains the run (the server shutting down): no node starts any more, and the run stops
   * once the nodes running have ended and been checkpointed.
   */
  readonly drainSignal: AbortSignal;
}

/**
 * Runs a run's graph once, logging the events its stream modes ask for. Settles with the
 * outcome when the graph finished, paused or failed (with the events still to write, for the
 * run's end to write with it); rejects (leaving the run to resume)
 * only when `signal` stopped it, `drainSignal` drained it, or the event log could not be
 * written.
 */
export async function executeRun(execution: RunExecution): Promise<RunOutcome> {
  const { run, assistant, log, signal } = execution;
  const modes = new Set(run.request.streamMode);
  const emit = (event: string, data: unknown) => log.append(run.runId, event, data);
  emit("metadata", { run_id: run.runId, attempt: run.attempt });

  const config = runConfig(execution);
  const graph = assistant.graph;
  const threadConfig = { configurable: { thread_id: run.threadId } };
  const messages = new MessageTracker(run.runId, run.threadId);
  let wroteValues = false;
  let failure: RunFailure | null = null;
  // A run that finished says so with its final state: no need to read the thread back.
  let finalState: StateRecord | undefined;
  try {
    for await (const event of graph.stream(execution.input as GraphInput, config)) {
      if (modes.has("events")) emit("events", jsonEvent(event));
      if (event.type === "node_start") {
        messages.nodeStarted(event.node, event.visit, event.step);
      } else if (event.type === "node_end") {
        if (modes.has("updates")) emit("updates", { [event.node]: assistant.toWire(event.update) });
        if (modes.has("values")) {
          emit("values", assistant.toWire((await graph.getState(threadConfig)).values));
          wroteValues = true;
        }
      } else if (event.type === "agent" && modes.has("messages-tuple")) {
        const tuple = messages.tuple(event.node, event.event);
        if (tuple) emit("messages", tuple);
      } else if (event.type === "custom" && modes.has("custom")) {
        emit("custom", event.data);
      } else if (event.type === "done") {
        finalState = event.state;
      }
    }
  } catch (error) {
    if (signal.aborted || drained(error, execution.drainSignal)) {
      await log.flush();
      throw error;
    }
    failure = runFailure(error);
    emit("error", { error: failure.type, message: failure.message });
  }

  let interrupts: readonly WireInterrupt[] = [];
  let values: JsonObject;
  if (finalState !== undefined && failure === null) {
    values = assistant.toWire(finalState);
  } else {
    const snapshot: StateSnapshot = await graph.getState(threadConfig);
    interrupts = wireInterrupts(snapshot);
    values = assistant.toWire(snapshot.values);
  }
  const shown = interrupts.length > 0 ? { ...values, __interrupt__: interrupts } : values;
  if (interrupts.length > 0) {
    if (modes.has("updates")) emit("updates", { __interrupt__: interrupts });
    if (modes.has("values")) emit("values", shown);
  } else if (modes.has("values") && !wroteValues && failure === null) {
    emit("values", shown);
  }
  return {
    status: failure ? "error" : interrupts.length > 0 ? "interrupted" : "success",
    values: shown,
    error: failure,
    interrupts,
    events: await log.takeUnwritten(run.runId),
  };
}

/** Whether `error` is the graph stopping because `drainSignal` drained it. */
function drained(error: unknown, drainSignal: AbortSignal): boolean {
  return (
    drainSignal.aborted && AbortedError.isInstance(error) && error.cause === drainSignal.reason
  );
}

function runConfig({ run, checkpointId, signal, drainSignal }: RunExecution): GraphConfig {
  const { configurable, recursion_limit: recursionLimit } = run.request.config as {
    configurable?: JsonObject;
    recursion_limit?: number;
  };
  return {
    configurable: {
      ...configurable,
      thread_id: run.threadId,
      user_id: run.owner,
      run_id: run.runId,
      ...(checkpointId === null ? {} : { checkpoint_id: checkpointId }),
    },
    signal,
    drainSignal,
    ...(typeof recursionLimit === "number" ? { stepLimit: recursionLimit } : {}),
    checkpointMetadata: { run_id: run.runId, assistant_id: run.assistantId },
  };
}

/** A failure as clients see it: the error's class and message, secrets redacted, no stack. */
export function runFailure(error: unknown): RunFailure {
  if (FrameworkError.isInstance(error)) return { type: error.name, message: error.message };
  const type = error instanceof Error ? error.name : "Error";
  const message = error instanceof Error ? error.message : String(error);
  return { type, message: redactSecrets(message) };
}

/** A graph event as plain JSON: an agent's error becomes its class and message. */
function jsonEvent(event: GraphEvent): unknown {
  if (event.type !== "agent" || event.event.type !== "error") return event;
  return { ...event, event: { type: "error", error: runFailure(event.event.error) } };
}

/**
 * Turns an agent's events into LangGraph's `messages` tuples: `[message chunk, metadata]`,
 * the chunk's id being the id the message gets in the thread's state.
 */
class MessageTracker {
  readonly #runId: string;
  readonly #threadId: string;
  readonly #nodes = new Map<string, { visit: number; graphStep: number; agentStep: number }>();

  constructor(runId: string, threadId: string) {
    this.#runId = runId;
    this.#threadId = threadId;
  }

  nodeStarted(node: string, visit: number, graphStep: number): void {
    this.#nodes.set(node, { visit, graphStep, agentStep: 0 });
  }

  tuple(node: string, event: AgentEvent): [unknown, unknown] | undefined {
    const state = this.#nodes.get(node) ?? { visit: 1, graphStep: 0, agentStep: 0 };
    this.#nodes.set(node, state);
    const metadata = {
      langgraph_node: node,
      langgraph_step: state.graphStep,
      run_id: this.#runId,
      thread_id: this.#threadId,
    };
    const id = () => agentMessageId(this.#runId, node, state.visit, state.agentStep);
    switch (event.type) {
      case "step-start":
        state.agentStep = event.step;
        return undefined;
      case "text-delta":
        return [
          { type: "AIMessageChunk", id: id(), content: event.text, tool_call_chunks: [] },
          metadata,
        ];
      // Where LangChain's own reasoning models (DeepSeek's) put it: the SDK's message manager
      // joins it on the message, apart from its content.
      case "reasoning-delta":
        return [
          {
            type: "AIMessageChunk",
            id: id(),
            content: "",
            additional_kwargs: { reasoning_content: event.text },
            tool_call_chunks: [],
          },
          metadata,
        ];
      case "tool-call":
        return [
          {
            type: "AIMessageChunk",
            id: id(),
            content: "",
            tool_call_chunks: [
              {
                type: "tool_call_chunk",
                id: event.toolCallId,
                name: event.toolName,
                args:
                  typeof event.arguments === "string"
                    ? event.arguments
                    : JSON.stringify(event.arguments ?? {}),
                index: 0,
              },
            ],
          },
          metadata,
        ];
      case "tool-result":
        return [
          {
            type: "tool",
            id: `tool-${event.toolCallId}`,
            content: event.output,
            tool_call_id: event.toolCallId,
            name: event.toolName,
            status: event.isError ? "error" : "success",
          },
          metadata,
        ];
      default:
        return undefined;
    }
  }
}
