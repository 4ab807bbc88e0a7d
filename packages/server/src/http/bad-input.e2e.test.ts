import { MockChatModel } from "@framework/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestServer, type TestServer, testAgent, twoStepGraph } from "../test-server.js";

let running: TestServer;
beforeAll(async () => {
  running = await startTestServer({
    agents: { banker: testAgent(new MockChatModel([], { defaultReply: "ok" })) },
    graphs: { review: twoStepGraph() },
    bodyLimitBytes: 64 * 1024,
  });
});
afterAll(() => running.close());

async function call(
  method: string,
  path: string,
  body?: string,
  headers: Record<string, string> = {},
) {
  const response = await fetch(`${running.url}${path}`, {
    method,
    headers: { "content-type": "application/json", ...headers },
    ...(body === undefined ? {} : { body }),
  });
  const text = await response.text();
  expect(text).not.toMatch(/\n\s+at /);
  return {
    status: response.status,
    body: text
      ? (JSON.parse(text) as {
          error?: { type: string; message: string; issues?: { path: unknown[] }[] };
        })
      : undefined,
  };
}

async function newThread(): Promise<string> {
  const { body } = await call("POST", "/threads", "{}");
  return (body as unknown as { thread_id: string }).thread_id;
}

describe("bad input gets a clear JSON error and changes nothing", () => {
  it("answers malformed JSON with 400", async () => {
    const { status, body } = await call("POST", "/threads", "{not json");
    expect(status).toBe(400);
    expect(body?.error?.type).toBe("MalformedRequestError");
  });

  it("answers a body that breaks the schema with 422 and the path of each problem", async () => {
    const { status, body } = await call(
      "POST",
      "/threads/search",
      JSON.stringify({ limit: "ten", sort_order: "sideways" }),
    );
    expect(status).toBe(422);
    expect(body?.error?.type).toBe("RequestValidationError");
    expect(body?.error?.issues?.map((issue) => issue.path)).toEqual(
      expect.arrayContaining([
        ["json", "limit"],
        ["json", "sort_order"],
      ]),
    );
  });

  it("answers an unknown stream mode with 422", async () => {
    const thread = await newThread();
    const { status } = await call(
      "POST",
      `/threads/${thread}/runs`,
      JSON.stringify({ assistant_id: "review", stream_mode: ["everything"] }),
    );
    expect(status).toBe(422);
  });

  it("refuses input the graph's state refuses, with 422 and no run created", async () => {
    const thread = await newThread();
    const { status, body } = await call(
      "POST",
      `/threads/${thread}/runs`,
      JSON.stringify({ assistant_id: "review", input: { approved: "yes" } }),
    );
    expect(status).toBe(422);
    expect(body?.error?.issues?.[0]?.path).toEqual(["input", "approved"]);
    const runs = await call("GET", `/threads/${thread}/runs`);
    expect(runs.body).toEqual([]);
  });

  it("refuses an agent's input that is not messages", async () => {
    const thread = await newThread();
    const { status } = await call(
      "POST",
      `/threads/${thread}/runs`,
      JSON.stringify({
        assistant_id: "banker",
        input: { messages: [{ role: "wizard", content: 1 }] },
      }),
    );
    expect(status).toBe(422);
  });

  it("answers a body over the limit with 413, whether it says its length or not", async () => {
    const big = JSON.stringify({ metadata: { blob: "x".repeat(70 * 1024) } });
    expect((await call("POST", "/threads", big)).status).toBe(413);
    const chunked = new ReadableStream<Uint8Array>({
      start(controller) {
        controller.enqueue(new TextEncoder().encode(big));
        controller.close();
      },
    });
    const response = await fetch(`${running.url}/threads`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: chunked,
      duplex: "half",
    } as RequestInit);
    expect(response.status).toBe(413);
    expect(((await response.json()) as { error: { type: string } }).error.type).toBe(
      "RequestTooLargeError",
    );
  });

  it("answers unknown assistants, threads, runs and checkpoints with 404", async () => {
    const thread = await newThread();
    const cases = [
      await call("GET", "/assistants/nobody"),
      await call("GET", "/threads/no-such-thread"),
      await call("GET", `/threads/${thread}/runs/no-such-run`),
      await call("GET", `/threads/${thread}/state/no-such-checkpoint`),
      await call("POST", `/threads/${thread}/runs`, JSON.stringify({ assistant_id: "nobody" })),
      await call(
        "POST",
        "/threads/no-such-thread/runs",
        JSON.stringify({ assistant_id: "review" }),
      ),
    ];
    expect(cases.map((c) => c.status)).toEqual([404, 404, 404, 404, 404, 404]);
    expect(cases.map((c) => c.body?.error?.type)).toEqual(Array(6).fill("ResourceNotFoundError"));
  });

  it("answers an unknown route with a JSON 404", async () => {
    const { status, body } = await call("GET", "/nowhere");
    expect(status).toBe(404);
    expect(body?.error?.type).toBe("RouteNotFoundError");
  });

  it("refuses static breakpoints it does not support instead of ignoring them", async () => {
    const thread = await newThread();
    const { status, body } = await call(
      "POST",
      `/threads/${thread}/runs`,
      JSON.stringify({ assistant_id: "review", interrupt_before: ["review"] }),
    );
    expect(status).toBe(422);
    expect(body?.error?.message).toMatch(/breakpoints are not supported/);
  });
});
