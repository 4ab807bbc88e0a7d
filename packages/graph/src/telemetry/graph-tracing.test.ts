import { primaryFunction, silentLogger, type ToolSource } from "@framework/core";
import { MockChatModel, mockToolCall } from "@framework/testing";
import { context, SpanStatusCode, trace } from "@opentelemetry/api";
import { AsyncLocalStorageContextManager } from "@opentelemetry/context-async-hooks";
import {
  BasicTracerProvider,
  InMemorySpanExporter,
  type ReadableSpan,
  SimpleSpanProcessor,
} from "@opentelemetry/sdk-trace-base";
import { beforeEach, describe, expect, it } from "vitest";
import { z } from "zod";
import { MemorySaver } from "../checkpoint/memory-saver.js";
import { AgentNode } from "../crew/agent-node.js";
import { CrewAgent } from "../crew/crew-agent.js";
import { FlowStateGraph } from "../graph/flow-state-graph.js";
import { END, START } from "../node/endpoints.js";
import { appendReducer } from "../state/append-reducer.js";
import { reducer } from "../state/reducer.js";
import { defineState, type StateOf, type UpdateOf } from "../state/state-definition.js";

// An application's OpenTelemetry set-up: a provider and the AsyncLocalStorage context manager.
const exporter = new InMemorySpanExporter();
context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable());
trace.setGlobalTracerProvider(
  new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] }),
);
beforeEach(() => exporter.reset());

const State = defineState({
  messages: reducer(
    z.array(z.object({ role: z.string(), content: z.string() })),
    appendReducer,
    () => [],
  ),
  left: z.string().optional(),
  right: z.string().optional(),
  summary: z.string().optional(),
});
type S = StateOf<typeof State>;
type U = UpdateOf<typeof State>;

class Ask extends AgentNode<S, U> {
  constructor(
    name: string,
    llm: MockChatModel,
    private readonly key: keyof S,
    tools: ToolSource[] = [],
  ) {
    super({
      name,
      llm,
      description: `You are ${name}.`,
      tools,
      toolsPath: false,
      logger: silentLogger,
    });
  }
  async exec(): Promise<U> {
    return { [this.key]: (await this.invoke(`Work as ${this.key}`)).content };
  }
}

const lookup = primaryFunction(
  { description: "Looks up.", parameters: z.object({ q: z.string() }), returns: "str" },
  async function lookup({ q }) {
    // Yields to the scheduler, so the two branches really interleave.
    await new Promise((resolve) => setTimeout(resolve, 5));
    return `found ${q}`;
  },
);

const byId = (spans: readonly ReadableSpan[]) =>
  new Map(spans.map((span) => [span.spanContext().spanId, span]));
const parentOf = (span: ReadableSpan) => span.parentSpanContext?.spanId;
const only = (spans: readonly ReadableSpan[], name: string) => {
  const found = spans.filter((span) => span.name === name);
  expect(found, name).toHaveLength(1);
  return found[0]!;
};

function crewOf(left: MockChatModel, right: MockChatModel, summary: MockChatModel) {
  const a = new Ask("left", left, "left", [lookup]);
  const b = new Ask("right", right, "right", [lookup]);
  const c = new Ask("summary", summary, "summary");
  return new CrewAgent({
    checkpointer: new MemorySaver(),
    graph: new FlowStateGraph(State),
    flow: [START.to(a), START.to(b), a.to(c), b.to(c), c.to(END)],
    logger: silentLogger,
  });
}

describe("graph tracing", () => {
  it("puts each node under the run and each crew agent's spans under its own node", async () => {
    const script = (q: string) => [
      { toolCalls: [mockToolCall("lookup", { q }, `call_${q}`)] },
      `${q} done`,
    ];
    const crew = crewOf(
      new MockChatModel(script("l")),
      new MockChatModel(script("r")),
      new MockChatModel(["all done"]),
    );
    const state = await crew.invoke("Go", { threadId: "t1" });
    expect(state.summary).toBe("all done");

    const spans = exporter.getFinishedSpans();
    const spanById = byId(spans);
    const run = only(spans, "graph_run");
    expect(parentOf(run)).toBeUndefined();
    expect(run.attributes["graph.thread_id"]).toBe("t1");
    for (const name of ["left", "right", "summary"]) {
      const node = only(spans, `graph_node ${name}`);
      expect(parentOf(node)).toBe(run.spanContext().spanId);
      expect(node.attributes["graph.node.name"]).toBe(name);
      const agent = only(spans, `invoke_agent ${name}`);
      expect(parentOf(agent)).toBe(node.spanContext().spanId);
      expect(agent.attributes["gen_ai.agent.name"]).toBe(name);
    }
    // Every tool span climbs to the agent of its own branch, though the branches interleaved.
    for (const q of ["l", "r"]) {
      const tool = spans.find((span) => span.attributes["gen_ai.tool.call.id"] === `call_${q}`)!;
      const agent = spanById.get(parentOf(tool)!)!;
      expect(agent.name).toBe(q === "l" ? "invoke_agent left" : "invoke_agent right");
    }
    const left = only(spans, "graph_node left");
    const right = only(spans, "graph_node right");
    // Relative to the run, so the sum stays within a double's exact integers.
    const nanos = ([s, n]: [number, number]) => (s - run.startTime[0]) * 1e9 + n;
    expect(nanos(left.startTime)).toBeLessThan(nanos(right.endTime));
    expect(nanos(right.startTime)).toBeLessThan(nanos(left.endTime));
    expect(new Set(spans.map((span) => span.spanContext().traceId)).size).toBe(1);
  });

  it("marks a failing node and its run as errors", async () => {
    const crew = crewOf(
      new MockChatModel([new Error("left model is down")]),
      new MockChatModel(["r done"]),
      new MockChatModel(["unused"]),
    );
    await expect(crew.invoke("Go", { threadId: "t2" })).rejects.toThrow();
    const spans = exporter.getFinishedSpans();
    const left = only(spans, "graph_node left");
    expect(left.status.code).toBe(SpanStatusCode.ERROR);
    expect(left.status.message).toContain("left model is down");
    expect(only(spans, "graph_run").status.code).toBe(SpanStatusCode.ERROR);
    expect(only(spans, "invoke_agent left").status.code).toBe(SpanStatusCode.ERROR);
  });

  it("marks a node that paused the run as interrupted, not failed", async () => {
    const app = new FlowStateGraph(State)
      .addNode("ask", (_state, context) => ({ left: context.interrupt<string>("Go on?") }))
      .addEdge(START, "ask")
      .addEdge("ask", END)
      .compile({ checkpointer: new MemorySaver() });
    await app.invoke({}, { configurable: { thread_id: "t3" } });
    const spans = exporter.getFinishedSpans();
    const ask = only(spans, "graph_node ask");
    expect(ask.status.code).toBe(SpanStatusCode.UNSET);
    expect(ask.attributes["graph.node.interrupted"]).toBe(true);
    expect(only(spans, "graph_run").status.code).toBe(SpanStatusCode.UNSET);
  });
});
