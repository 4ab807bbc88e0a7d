import { defineState, END, FlowStateGraph, type NodeContext, START } from "@framework/graph";
import { Client } from "@langchain/langgraph-sdk";
import { afterEach, describe, expect, it } from "vitest";
import { z } from "zod";
import { startTestServer, type TestServer } from "./test-server.js";

let running: TestServer | undefined;
afterEach(async () => {
  await running?.close();
  running = undefined;
});

async function serve(options: Parameters<typeof startTestServer>[0]) {
  running = await startTestServer(options);
  return new Client({ apiUrl: running.url });
}

// The choices take any JSON, so an answer shows in the state as it was given.
const Trip = defineState({
  city: z.string().optional(),
  hotel: z.unknown(),
  flight: z.unknown(),
});

/** START -> {hotel, flight} -> END: each node asks a person, in parallel. */
function tripGraph() {
  const ask = (key: "hotel" | "flight") => (_state: unknown, context: NodeContext) => {
    context.writer({ asking: key });
    return { [key]: context.interrupt({ question: `Which ${key}?` }) };
  };
  return new FlowStateGraph(Trip)
    .addNode("hotel", ask("hotel"))
    .addNode("flight", ask("flight"))
    .addEdge(START, "hotel")
    .addEdge(START, "flight")
    .addEdge("hotel", END)
    .addEdge("flight", END)
    .compile();
}

type Paused = { __interrupt__: { id: string; ns: string[]; value: unknown }[] };

describe("interrupts of parallel nodes, and custom events, over the Agent Protocol", () => {
  it("answers every pending interrupt in one run with command.resume as a map of their ids", async () => {
    const client = await serve({ graphs: { trip: tripGraph() } });
    const thread = await client.threads.create();
    const paused = (await client.runs.wait(thread.thread_id, "trip", {
      input: { city: "Lyon" },
    })) as Paused;
    expect(paused.__interrupt__.map((i) => i.ns[0]).sort()).toEqual(["flight", "hotel"]);
    const state = (await client.threads.getState(thread.thread_id)) as unknown as {
      interrupts: unknown;
    };
    expect(state.interrupts).toEqual(paused.__interrupt__);
    const idOf = (node: string) => paused.__interrupt__.find((i) => i.ns[0] === node)!.id;

    const values = await client.runs.wait(thread.thread_id, "trip", {
      command: { resume: { [idOf("hotel")]: "Le Royal", [idOf("flight")]: "AF 7702" } },
    });
    expect(values).toEqual({ city: "Lyon", hotel: "Le Royal", flight: "AF 7702" });
    expect((await client.threads.get(thread.thread_id)).status).toBe("idle");
  });

  it("takes any other command.resume as the answer to the first interrupt", async () => {
    const client = await serve({ graphs: { trip: tripGraph() } });
    const thread = await client.threads.create();
    const paused = (await client.runs.wait(thread.thread_id, "trip", {
      input: { city: "Lyon" },
    })) as Paused;
    const [first, second] = paused.__interrupt__;

    const still = (await client.runs.wait(thread.thread_id, "trip", {
      command: { resume: "the first answer" },
    })) as Paused & Record<string, unknown>;
    expect(still[first!.ns[0]!]).toBe("the first answer");
    expect(still.__interrupt__).toEqual([second]);

    // A map naming an id no longer pending is an answer like any other: to the first.
    const answered = (await client.runs.wait(thread.thread_id, "trip", {
      command: { resume: { [first!.id]: "late" } },
    })) as Record<string, unknown>;
    expect(answered[second!.ns[0]!]).toEqual({ [first!.id]: "late" });
  });

  it("streams what nodes write as custom events in the custom mode only", async () => {
    const client = await serve({ graphs: { trip: tripGraph() } });
    const parts = [];
    const thread = await client.threads.create();
    for await (const part of client.runs.stream(thread.thread_id, "trip", {
      input: { city: "Lyon" },
      streamMode: ["custom", "updates"],
    })) {
      parts.push(part);
    }
    const custom = parts.filter((part) => part.event === "custom");
    expect(
      custom
        .map((part) => part.data)
        .sort((a, b) => JSON.stringify(a).localeCompare(JSON.stringify(b))),
    ).toEqual([{ asking: "flight" }, { asking: "hotel" }]);
    expect(custom.every((part) => typeof (part as { id?: unknown }).id === "string")).toBe(true);

    const other = await client.threads.create();
    const events = [];
    for await (const part of client.runs.stream(other.thread_id, "trip", {
      input: { city: "Lyon" },
      streamMode: ["updates"],
    })) {
      events.push(part.event);
    }
    expect(events).not.toContain("custom");
  });
});
