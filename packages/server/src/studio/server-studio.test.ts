import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { gunzipSync } from "node:zlib";
import { silentLogger } from "@framework/core";
import { MockChatModel, mockToolCall } from "@framework/testing";
import { OpenAPIHono } from "@hono/zod-openapi";
import { afterEach, describe, expect, it } from "vitest";
import { apiKeyAuth } from "../auth/api-key-auth.js";
import { errorAnswer } from "../http/error-response.js";
import { studioPageRoutes } from "../http/routes/studio-page-routes.js";
import type { ServerEnv } from "../http/server-context.js";
import { startTestServer, type TestServer, testAgent } from "../test-server.js";
import { STUDIO_CONTENT_SECURITY_POLICY, StudioAssets } from "./studio-assets.js";

const directories: string[] = [];
let running: TestServer | undefined;
afterEach(async () => {
  await running?.close();
  running = undefined;
  for (const directory of directories.splice(0)) rmSync(directory, { recursive: true });
});

/** A built page as Vite lays it out: `index.html` and content-hashed `assets/`. */
function builtPage(): string {
  const directory = mkdtempSync(join(tmpdir(), "studio-page-"));
  directories.push(directory);
  mkdirSync(join(directory, "assets"));
  writeFileSync(join(directory, "index.html"), "<!doctype html><title>Studio</title>");
  writeFileSync(join(directory, "assets", "index-Ab12.js"), `console.log("${"x".repeat(2000)}");`);
  return directory;
}

function pageApp(assets: StudioAssets) {
  const app = new OpenAPIHono<ServerEnv>();
  studioPageRoutes(app, assets);
  app.onError((error, c) => {
    const { status, body } = errorAnswer(error, silentLogger, 1024);
    return c.json(body, status as 400);
  });
  return app;
}

describe("the studio's page", () => {
  it("serves the page no-cache and hashed assets immutable, gzipped, under a same-origin policy", async () => {
    const app = pageApp(new StudioAssets([builtPage()]));

    const page = await app.request("/studio/");
    expect(page.status).toBe(200);
    expect(page.headers.get("content-type")).toBe("text/html; charset=utf-8");
    expect(page.headers.get("cache-control")).toBe("no-cache");
    expect(page.headers.get("content-security-policy")).toBe(STUDIO_CONTENT_SECURITY_POLICY);
    expect(await page.text()).toContain("<title>Studio</title>");

    const script = await app.request("/studio/assets/index-Ab12.js", {
      headers: { "accept-encoding": "gzip, br" },
    });
    expect(script.headers.get("cache-control")).toBe("public, max-age=31536000, immutable");
    expect(script.headers.get("content-encoding")).toBe("gzip");
    const body = gunzipSync(new Uint8Array(await script.arrayBuffer())).toString("utf8");
    expect(body).toContain("console.log");
  });

  it("answers the page for its own routes, a 404 for a missing asset, and redirects /studio", async () => {
    const app = pageApp(new StudioAssets([builtPage()]));
    expect(await (await app.request("/studio/threads/abc")).text()).toContain("<title>");
    const missing = await app.request("/studio/assets/gone-1234.js");
    expect(missing.status).toBe(404);
    expect(await missing.json()).toMatchObject({ error: { type: "RouteNotFoundError" } });
    expect(await app.request("/studio/../package.json")).toHaveProperty("status", 404);
    const bare = await app.request("/studio");
    expect(bare.status).toBe(308);
    expect(bare.headers.get("location")).toBe("/studio/");
  });

  it("answers a typed 503 when the package holds no built page", async () => {
    const nowhere = join(tmpdir(), "studio-page-never-built");
    const answer = await pageApp(new StudioAssets([nowhere])).request("/studio/");
    expect(answer.status).toBe(503);
    const { error } = (await answer.json()) as { error: { type: string; message: string } };
    expect(error.type).toBe("StudioNotBuiltError");
    expect(error.message).toContain("run the build of @framework/server");
  });
});

type Pending = { thread_id: string; interrupts: { value: { type: string; call: unknown } }[] }[];

describe("the studio's API", () => {
  it("lists the caller's threads waiting on an approval, with the call's arguments", async () => {
    const llm = new MockChatModel([
      { toolCalls: [mockToolCall("transfer_funds", { amount: 5, to: "bob" }, "call_1")] },
    ]);
    const keys = { "key-ann": "ann", "key-bob": "bob" };
    running = await startTestServer({
      agents: { banker: testAgent(llm) },
      auth: apiKeyAuth({ keys }),
    });
    const as = (key: string) => ({ "content-type": "application/json", "x-api-key": key });
    const thread = (await (
      await fetch(`${running.url}/threads`, { method: "POST", headers: as("key-ann"), body: "{}" })
    ).json()) as { thread_id: string };
    const run = await fetch(`${running.url}/threads/${thread.thread_id}/runs/wait`, {
      method: "POST",
      headers: as("key-ann"),
      body: JSON.stringify({
        assistant_id: "banker",
        input: { messages: [{ role: "user", content: "send bob 5" }] },
      }),
    });
    expect(run.status).toBe(200);

    const ann = (await (
      await fetch(`${running.url}/interrupts`, { headers: as("key-ann") })
    ).json()) as Pending;
    expect(ann.map((pending) => pending.thread_id)).toEqual([thread.thread_id]);
    expect(ann[0]!.interrupts[0]!.value).toMatchObject({
      type: "tool-approval",
      call: { toolName: "transfer_funds", arguments: { amount: 5, to: "bob" } },
    });
    const bob = await fetch(`${running.url}/interrupts`, { headers: as("key-bob") });
    expect(await bob.json()).toEqual([]);
  });

  it("keeps a run's spans when the studio is on, from graph_run down to its tool call", async () => {
    const llm = new MockChatModel([
      { toolCalls: [mockToolCall("lookup_rate", { pair: "EURUSD" })] },
      "The rate is 1.08 today.",
    ]);
    running = await startTestServer({ agents: { banker: testAgent(llm) }, studio: true });
    const post = (path: string, body: unknown) =>
      fetch(`${running!.url}${path}`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify(body),
      }).then((answer) => answer.json() as Promise<Record<string, unknown>>);
    const thread = await post("/threads", {});
    const threadId = thread.thread_id as string;
    const run = await post(`/threads/${threadId}/runs`, {
      assistant_id: "banker",
      input: { messages: [{ role: "user", content: "EURUSD?" }] },
    });
    await fetch(`${running.url}/threads/${threadId}/runs/${run.run_id}/join`);

    const trace = (await (
      await fetch(`${running.url}/threads/${threadId}/runs/${run.run_id}/trace`)
    ).json()) as { recording: boolean; spans: { name: string; end_time: number | null }[] };
    expect(trace.recording).toBe(true);
    const names = trace.spans.map((span) => span.name);
    expect(names[0]).toBe("graph_run");
    expect(names).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/^graph_node/),
        expect.stringMatching(/^invoke_agent/),
        expect.stringMatching(/^chat/),
        expect.stringMatching(/^execute_tool/),
      ]),
    );
    expect(trace.spans.every((span) => span.end_time !== null)).toBe(true);

    const traces = (await (await fetch(`${running.url}/traces`)).json()) as {
      runs: { run_id: string }[];
    };
    expect(traces.runs.map((traced) => traced.run_id)).toEqual([run.run_id]);
  });

  it("has no studio routes when the studio is off", async () => {
    running = await startTestServer({ agents: { banker: testAgent(new MockChatModel()) } });
    expect((await fetch(`${running.url}/studio/`)).status).toBe(404);
    expect((await fetch(`${running.url}/traces`)).status).toBe(404);
  });
});
