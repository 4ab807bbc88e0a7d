import { mkdtempSync } from "node:fs";
import { connect } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { defineState, END, FlowStateGraph, START } from "@framework/graph";
import { afterEach, describe, expect, it } from "vitest";
import { z } from "zod";
import type { RunEventRecord } from "../store/server-store.js";
import { SqliteServerStore } from "../store/sqlite-server-store.js";
import { startTestServer, type TestServer } from "../test-server.js";

const eventCount = 2_000;
const eventText = "x".repeat(10_000);

/** One node that reports `eventCount` large text deltas, as a very talkative agent would. */
function talkative() {
  const graph = new FlowStateGraph(defineState({ done: z.boolean().optional() }));
  graph.addNode("talk", async (_state, context) => {
    for (let index = 0; index < eventCount; index++) {
      context.agentEvent({ type: "text-delta", text: eventText });
    }
    return { done: true };
  });
  graph.addEdge(START, "talk");
  graph.addEdge("talk", END);
  return graph.compile();
}

/** A store that counts the events read back from it. */
class CountingStore extends SqliteServerStore {
  eventsRead = 0;

  override async readEvents(
    owner: string,
    runId: string,
    afterSeq: number,
    limit: number,
  ): Promise<RunEventRecord[]> {
    const events = await super.readEvents(owner, runId, afterSeq, limit);
    this.eventsRead += events.length;
    return events;
  }
}

let running: TestServer | undefined;
afterEach(() => running?.close());

describe("a client that stops reading", () => {
  it("makes the server read no further into the run's log than the connection takes", async () => {
    const directory = mkdtempSync(join(tmpdir(), "framework-slow-"));
    const store = new CountingStore({ path: join(directory, "server.sqlite") });
    running = await startTestServer({ graphs: { talk: talkative() }, store }, directory);
    const { url } = running;
    const post = async (path: string, body: unknown) =>
      (await (
        await fetch(`${url}${path}`, {
          method: "POST",
          headers: { "content-type": "application/json" },
          body: JSON.stringify(body),
        })
      ).json()) as { thread_id: string; run_id: string };
    const thread = await post("/threads", {});
    const run = await post(`/threads/${thread.thread_id}/runs`, {
      assistant_id: "talk",
      input: {},
      stream_mode: ["messages-tuple"],
    });

    const { port } = new URL(url);
    const socket = connect(Number(port), "127.0.0.1");
    socket.write(
      `GET /threads/${thread.thread_id}/runs/${run.run_id}/stream HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n`,
    );
    socket.pause();
    await expect
      .poll(
        async () =>
          (
            (await (
              await fetch(`${url}/threads/${thread.thread_id}/runs/${run.run_id}`)
            ).json()) as { status: string }
          ).status,
        { timeout: 60_000 },
      )
      .toBe("success");
    await new Promise((resolve) => setTimeout(resolve, 200));
    // 20 MB were logged; what the stream took is what the socket buffers hold, a fraction.
    expect(store.eventsRead).toBeLessThan(eventCount / 2);

    let received = "";
    socket.setEncoding("utf8").on("data", (chunk: string) => {
      received += chunk;
    });
    socket.resume();
    await expect
      .poll(() => received.split("\nevent: messages\n").length - 1, { timeout: 60_000 })
      .toBe(eventCount);
    socket.destroy();
  });
});
