import { setImmediate as nextTurn } from "node:timers/promises";
import { defineState, END, FlowStateGraph, START } from "@framework/graph";
import { createParser, type EventSourceMessage } from "eventsource-parser";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { startTestServer, type TestServer } from "../test-server.js";

const State = defineState({ count: z.number().default(0) });

/** A chain of `length` nodes, each yielding to the event loop a few times before it ends. */
function chain(length: number) {
  const graph = new FlowStateGraph(State);
  let previous = START.name;
  for (let index = 0; index < length; index++) {
    const name = `n${index}`;
    graph.addNode(name, async (state) => {
      for (let turn = 0; turn < 3; turn++) await nextTurn();
      return { count: state.count + 1 };
    });
    graph.addEdge(previous, name);
    previous = name;
  }
  graph.addEdge(previous, END);
  return graph.compile();
}

let running: TestServer;
beforeAll(async () => {
  running = await startTestServer({ graphs: { chain: chain(12) } });
});
afterAll(() => running.close());

async function startRun(): Promise<{ threadId: string; runId: string }> {
  const thread = (await (
    await fetch(`${running.url}/threads`, {
      method: "POST",
      body: "{}",
      headers: { "content-type": "application/json" },
    })
  ).json()) as { thread_id: string };
  const run = (await (
    await fetch(`${running.url}/threads/${thread.thread_id}/runs`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({
        assistant_id: "chain",
        input: {},
        stream_mode: ["values", "updates", "events"],
      }),
    })
  ).json()) as { run_id: string };
  return { threadId: thread.thread_id, runId: run.run_id };
}

/**
 * Reads the run's stream after `lastEventId`, dropping the connection after `take` events
 * (never, when undefined). Resolves with the events read and whether the stream ended.
 */
async function read(
  path: string,
  lastEventId: string | undefined,
  take: number | undefined,
): Promise<{ events: EventSourceMessage[]; ended: boolean }> {
  const controller = new AbortController();
  const response = await fetch(`${running.url}${path}`, {
    headers: lastEventId === undefined ? {} : { "Last-Event-ID": lastEventId },
    signal: controller.signal,
  });
  const events: EventSourceMessage[] = [];
  const parser = createParser({ onEvent: (event) => events.push(event) });
  const decoder = new TextDecoder();
  const reader = response.body!.getReader();
  try {
    for (;;) {
      if (take !== undefined && events.length >= take) {
        controller.abort();
        return { events: events.slice(0, take), ended: false };
      }
      const { done, value } = await reader.read();
      if (done) return { events, ended: true };
      parser.feed(decoder.decode(value, { stream: true }));
    }
  } catch (error) {
    if (controller.signal.aborted) return { events: events.slice(0, take), ended: false };
    throw error;
  }
}

describe("a run's event stream", () => {
  it("adds up to the uninterrupted stream however often and wherever the client drops", async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.integer({ min: 0, max: 6 }), { maxLength: 8 }),
        async (drops) => {
          const { threadId, runId } = await startRun();
          const path = `/threads/${threadId}/runs/${runId}/stream`;
          const received: EventSourceMessage[] = [];
          let lastId: string | undefined;
          for (const take of [...drops, undefined]) {
            const { events, ended } = await read(path, lastId, take);
            received.push(...events);
            lastId = events.at(-1)?.id ?? lastId;
            if (ended) break;
          }
          const whole = await read(path, undefined, undefined);
          expect(received.map((event) => [event.id, event.event, event.data])).toEqual(
            whole.events.map((event) => [event.id, event.event, event.data]),
          );
          const run = (await (
            await fetch(`${running.url}/threads/${threadId}/runs/${runId}`)
          ).json()) as {
            status: string;
          };
          expect(run.status).toBe("success");
        },
      ),
      { numRuns: 25 },
    );
  });

  it("carries the headers that keep proxies from buffering and let LangGraph's client reconnect", async () => {
    const { threadId, runId } = await startRun();
    const response = await fetch(`${running.url}/threads/${threadId}/runs/${runId}/stream`);
    expect(response.headers.get("content-type")).toMatch(/^text\/event-stream/);
    expect(response.headers.get("cache-control")).toBe("no-cache, no-transform");
    expect(response.headers.get("x-accel-buffering")).toBe("no");
    expect(response.headers.get("location")).toBe(`/threads/${threadId}/runs/${runId}/stream`);
    expect(response.headers.get("content-location")).toBe(`/threads/${threadId}/runs/${runId}`);
    await response.body?.cancel();
  });
});
