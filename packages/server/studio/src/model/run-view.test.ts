import { describe, expect, it } from "vitest";
import type { RunStreamEvent } from "../api/wire.js";
import { applyRunEvent, emptyRunView, finished, type RunView } from "./run-view.js";

const replay = (events: RunStreamEvent[]): RunView =>
  finished(events.reduce(applyRunEvent, emptyRunView()));

const agent = (node: string, event: object): RunStreamEvent =>
  ({ event: "events", data: { type: "agent", node, event } }) as RunStreamEvent;

describe("a streamed run, as the studio shows it", () => {
  it("joins text deltas, pairs a tool call with its result, and parses its JSON arguments", () => {
    const view = replay([
      { event: "metadata", data: { run_id: "r1", attempt: 1 } },
      agent("agent", {
        type: "tool-call",
        toolCallId: "c1",
        toolName: "paper_research",
        arguments: '{"topic":"RAG"}',
      }),
      agent("agent", {
        type: "tool-result",
        toolCallId: "c1",
        toolName: "paper_research",
        output: "5 papers",
        isError: false,
        durationMs: 3,
      }),
      agent("agent", { type: "text-delta", text: "Here " }),
      agent("agent", { type: "text-delta", text: "they are." }),
    ]);
    expect(view.runId).toBe("r1");
    expect(view.phase).toBe("success");
    expect(view.transcript).toMatchObject([
      { kind: "tool", toolName: "paper_research", args: { topic: "RAG" }, result: "5 papers" },
      { kind: "text", node: "agent", text: "Here they are." },
    ]);
  });

  it("shows reasoning as it streams, before the answer, and once", () => {
    const result = { text: "Hello!", reasoning: "A greeting." };
    const view = replay([
      agent("agent", { type: "reasoning-delta", text: "A " }),
      agent("agent", { type: "reasoning-delta", text: "greeting." }),
      agent("agent", { type: "text-delta", text: "Hello!" }),
      agent("agent", { type: "finish", result }),
      agent("other", { type: "finish", result }),
    ]);
    expect(view.transcript).toMatchObject([
      { kind: "reasoning", node: "agent", text: "A greeting." },
      { kind: "text", node: "agent", text: "Hello!" },
      // A node whose model did not stream shows its reasoning from the result.
      { kind: "reasoning", node: "other", text: "A greeting." },
    ]);
  });

  it("lights parallel nodes in the order they start, and a paused run waits", () => {
    const view = replay([
      { event: "events", data: { type: "node_start", node: "market", step: 1, visit: 1 } },
      { event: "events", data: { type: "node_start", node: "crypto", step: 1, visit: 1 } },
      { event: "events", data: { type: "node_end", node: "crypto", step: 1, update: {} } },
      agent("market", {
        type: "error",
        error: { type: "NodeInterrupt", message: "waiting" },
      }),
      {
        event: "events",
        data: { type: "interrupt", id: "i1", node: "market", value: { type: "tool-approval" } },
      },
    ]);
    expect(view.activity.map((entry) => `${entry.node} ${entry.what}`)).toEqual([
      "market started",
      "crypto started",
      "crypto finished",
      "market waiting",
    ]);
    expect(view.nodes).toEqual({ market: "waiting", crypto: "done" });
    expect(view.phase).toBe("interrupted");
    // The pause is said once, as the interrupt; the agent's NodeInterrupt is no error.
    expect(view.transcript.map((entry) => entry.kind)).toEqual(["interrupt"]);
  });

  it("shows a failed run's typed error", () => {
    const view = replay([
      { event: "error", data: { error: "ModelCallError", message: "the model is down" } },
    ]);
    expect(view.phase).toBe("error");
    expect(view.transcript).toMatchObject([
      { kind: "error", type: "ModelCallError", message: "the model is down" },
    ]);
  });
});
