import type { AgentEvent, Json, JsonObject, RunStreamEvent } from "../api/wire.js";

/** One entry of a run's transcript, in the order it happened. */
export type TranscriptEntry =
  | { kind: "user"; key: string; text: string }
  | { kind: "text"; key: string; node: string; text: string }
  | { kind: "reasoning"; key: string; node: string; text: string }
  | {
      kind: "tool";
      key: string;
      node: string;
      toolCallId: string;
      toolName: string;
      args: Json;
      result?: string;
      isError?: boolean;
      durationMs?: number;
    }
  | { kind: "interrupt"; key: string; node: string; id: string; value: Json }
  | { kind: "error"; key: string; type: string; message: string };

/** Where a graph node is in the run being watched. */
export type NodeStatus = "running" | "done" | "waiting" | "failed";

/** One line of the run's activity: a node starting or finishing, in order. */
export interface NodeActivity {
  readonly node: string;
  readonly what: "started" | "finished" | "waiting";
}

/** Everything the studio shows of a streamed run, rebuilt from its events. */
export interface RunView {
  readonly runId: string | undefined;
  readonly transcript: readonly TranscriptEntry[];
  readonly nodes: Readonly<Record<string, NodeStatus>>;
  readonly activity: readonly NodeActivity[];
  readonly values: JsonObject | undefined;
  /** `streaming` until the stream ends, then how it ended. */
  readonly phase: "streaming" | "success" | "interrupted" | "error";
}

export const emptyRunView = (transcript: readonly TranscriptEntry[] = []): RunView => ({
  runId: undefined,
  transcript,
  nodes: {},
  activity: [],
  values: undefined,
  phase: "streaming",
});

let keys = 0;
const key = () => `e${++keys}`;

/** The transcript with a user's message added. */
export const withUserMessage = (view: RunView, text: string): RunView => ({
  ...view,
  transcript: [...view.transcript, { kind: "user", key: key(), text }],
});

/** A call's arguments arrive as the model wrote them: JSON text, shown as a tree when it parses. */
function parsedArguments(args: Json): Json {
  if (typeof args !== "string") return args;
  try {
    return JSON.parse(args) as Json;
  } catch {
    return args;
  }
}

/** Whether the node's reasoning of this turn already streamed in as deltas. */
function streamedReasoning(transcript: readonly TranscriptEntry[], node: string): boolean {
  for (let index = transcript.length - 1; index >= 0; index--) {
    const entry = transcript[index]!;
    if (entry.kind === "user") return false;
    if (entry.kind === "reasoning" && entry.node === node) return true;
  }
  return false;
}

function agentEvent(view: RunView, node: string, event: AgentEvent): RunView {
  const transcript = [...view.transcript];
  const last = transcript.at(-1);
  switch (event.type) {
    case "text-delta":
    case "reasoning-delta": {
      const kind = event.type === "text-delta" ? "text" : "reasoning";
      if (last?.kind === kind && last.node === node) {
        transcript[transcript.length - 1] = { ...last, text: last.text + event.text };
      } else {
        transcript.push({ kind, key: key(), node, text: event.text });
      }
      break;
    }
    case "tool-call":
      transcript.push({
        kind: "tool",
        key: key(),
        node,
        toolCallId: event.toolCallId,
        toolName: event.toolName,
        args: parsedArguments(event.arguments),
      });
      break;
    case "tool-result": {
      const index = transcript.findLastIndex(
        (entry) => entry.kind === "tool" && entry.toolCallId === event.toolCallId,
      );
      const call = transcript[index];
      if (call?.kind === "tool") {
        transcript[index] = {
          ...call,
          result: event.output,
          isError: event.isError,
          durationMs: event.durationMs,
        };
      }
      break;
    }
    case "finish":
      // A model that does not stream gives its reasoning only with the result.
      if (event.result.reasoning && !streamedReasoning(transcript, node)) {
        transcript.push({ kind: "reasoning", key: key(), node, text: event.result.reasoning });
      }
      break;
    case "error":
      // A node pausing for an answer ends its agent this way; the interrupt event says it.
      if (event.error.type === "NodeInterrupt") return view;
      transcript.push({ kind: "error", key: key(), ...event.error });
      break;
    default:
      return view;
  }
  return { ...view, transcript };
}

/** The view after one more event of the run's stream. */
export function applyRunEvent(view: RunView, { event, data }: RunStreamEvent): RunView {
  if (event === "metadata") return { ...view, runId: data.run_id };
  if (event === "values") return { ...view, values: data };
  if (event === "error") {
    return {
      ...view,
      phase: "error",
      transcript: [
        ...view.transcript,
        { kind: "error", key: key(), type: data.error, message: data.message },
      ],
    };
  }
  if (event !== "events") return view;
  switch (data.type) {
    case "node_start":
      return {
        ...view,
        nodes: { ...view.nodes, [data.node]: "running" },
        activity: [...view.activity, { node: data.node, what: "started" }],
      };
    case "node_end":
      return {
        ...view,
        nodes: { ...view.nodes, [data.node]: "done" },
        activity: [...view.activity, { node: data.node, what: "finished" }],
      };
    case "interrupt":
      return {
        ...view,
        nodes: { ...view.nodes, [data.node]: "waiting" },
        activity: [...view.activity, { node: data.node, what: "waiting" }],
        transcript: [
          ...view.transcript,
          { kind: "interrupt", key: key(), node: data.node, id: data.id, value: data.value },
        ],
      };
    case "agent":
      return agentEvent(view, data.node, data.event);
    default:
      return view;
  }
}

/** How a stream that ended without an error ended: paused on a question, or done. */
export function finished(view: RunView): RunView {
  if (view.phase === "error") return view;
  const waiting =
    Object.values(view.nodes).includes("waiting") ||
    (view.values !== undefined && "__interrupt__" in view.values);
  const nodes = Object.fromEntries(
    Object.entries(view.nodes).map(([node, status]) => [
      node,
      status === "running" ? (waiting ? "waiting" : "failed") : status,
    ]),
  ) as Record<string, NodeStatus>;
  return { ...view, nodes, phase: waiting ? "interrupted" : "success" };
}
