import { describe, expect, it } from "vitest";
import { z } from "zod";
import { MemorySaver } from "../checkpoint/memory-saver.js";
import { FlowStateGraph } from "../graph/flow-state-graph.js";
import { END, START } from "../node/endpoints.js";
import { defineState } from "../state/state-definition.js";
import type { GraphEvent } from "./graph-event.js";

const State = defineState({ pages: z.number().default(0) });

function reader() {
  return new FlowStateGraph(State)
    .addNode("read", (_state, { writer }) => {
      for (const page of [1, 2]) writer({ progress: page / 2, page });
      return { pages: 2 };
    })
    .addFlow([START.to("read").to(END)])
    .compile({ checkpointer: new MemorySaver() });
}

describe("context.writer", () => {
  it("streams what a node writes as custom events, tagged with the node, while it runs", async () => {
    const events: GraphEvent[] = [];
    for await (const event of reader().stream({}, { configurable: { thread_id: "w" } })) {
      events.push(event);
    }
    expect(events.map((event) => event.type)).toEqual([
      "node_start",
      "custom",
      "custom",
      "node_end",
      "done",
    ]);
    expect(events.filter((event) => event.type === "custom")).toEqual([
      { type: "custom", node: "read", data: { progress: 0.5, page: 1 } },
      { type: "custom", node: "read", data: { progress: 1, page: 2 } },
    ]);
  });

  it("goes nowhere without a stream, and is not saved", async () => {
    const app = reader();
    const config = { configurable: { thread_id: "w" } };
    expect(await app.invoke({}, config)).toEqual({ pages: 2 });
    const checkpoints = [];
    for await (const checkpoint of app.checkpointer!.list("w")) checkpoints.push(checkpoint);
    expect(JSON.stringify(checkpoints)).not.toContain("progress");
  });
});
