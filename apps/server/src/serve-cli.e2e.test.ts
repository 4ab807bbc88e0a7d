import type { ChildProcess } from "node:child_process";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { sampleDataHeadline } from "@framework/cli-kit";
import { type FakeServices, startFakeServices } from "@framework/demo-kit";
import { type AppProcessResult, spawnApp } from "@framework/demo-kit/testing";
import { cronQueueName, webhookQueueName } from "@framework/server-queue";
import { uniqueName } from "@framework/testing";
import { testServices } from "@framework/testing/services";
import { Client } from "@langchain/langgraph-sdk";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { referenceAnalyst } from "./offline/reference-analyst.js";
import { offlineApprovalNote } from "./serve-reference-agents.js";

const script = fileURLToPath(new URL("../dist/cli.js", import.meta.url));
const crewQuestion =
  "Compare AAPL and FPT with Bitcoin: how should I split a growth portfolio this month?";

/** A `pnpm serve` process, once it says where it serves (a worker's `url` is empty). */
interface Serving {
  url: string;
  child: ChildProcess;
  /** Settles when the process has ended. */
  ended: Promise<AppProcessResult>;
}

let cwd: string;
const started: Serving[] = [];
let databases = 0;

beforeAll(async () => {
  cwd = await mkdtemp(join(tmpdir(), "serve-cli-"));
});
afterEach(async () => {
  for (const serving of started.splice(0)) {
    serving.child.kill("SIGKILL");
    await serving.ended;
  }
});
afterAll(async () => {
  await rm(cwd, { recursive: true, force: true });
});

/**
 * Starts the built CLI on a free port (`--port 0`) and a database of its own, and resolves once
 * it prints its URL; rejects with its output if it ends first. A shared database would let a
 * server resume the runs a killed one left (as it should), here another test's.
 */
function serve(
  args: string[],
  env: Record<string, string> = {},
  ready: RegExp = /^serving (http:\/\/\S+) /m,
): Promise<Serving> {
  let child: ChildProcess | undefined;
  let stdout = "";
  const ended = spawnApp({
    script,
    args: ["--port", "0", "--db", join(cwd, `server-${++databases}.sqlite`), ...args],
    cwd,
    env: { FRAMEWORK_CHARTS_DIR: join(cwd, "charts"), ...env },
    onStart: (process) => {
      child = process;
      process.stdout?.on("data", (chunk: Buffer | string) => {
        stdout += String(chunk);
      });
    },
  });
  return new Promise((resolve, reject) => {
    const poll = setInterval(() => {
      const url = ready.exec(stdout)?.[1];
      if (url === undefined || !child) return;
      clearInterval(poll);
      const serving = { url, child, ended };
      started.push(serving);
      resolve(serving);
    }, 20);
    ended.then(
      (result) => {
        clearInterval(poll);
        reject(new Error(`pnpm serve ended (code ${result.code}):\n${result.stderr}`));
      },
      (error: unknown) => {
        clearInterval(poll);
        reject(error);
      },
    );
  });
}

/** Sends SIGTERM and resolves with how the process ended. */
async function terminate(serving: Serving): Promise<AppProcessResult> {
  started.splice(started.indexOf(serving), 1);
  serving.child.kill("SIGTERM");
  return serving.ended;
}

function lastMessage(values: unknown): { type: string; content: string } {
  const messages = (values as { messages: { type: string; content: string }[] }).messages;
  const last = messages.at(-1);
  if (!last) throw new Error("no messages in the thread's values");
  return last;
}

describe("pnpm serve --offline", () => {
  it("serves research, finance and advisory, says where and that it runs on sample data", async () => {
    const serving = await serve(["--offline"]);
    const client = new Client({ apiUrl: serving.url });
    const assistants = await client.assistants.search();
    expect(assistants.map((assistant) => assistant.graph_id).sort()).toEqual([
      "advisory",
      "finance",
      "research",
    ]);
    const docs = await fetch(`${serving.url}/docs`);
    expect(docs.status).toBe(200);
    const result = await terminate(serving);
    expect(result.stdout.split("\n")).toEqual([
      sampleDataHeadline,
      `serving ${serving.url} — assistants: research, finance, advisory (offline: sample data)`,
      `API reference: ${serving.url}/docs`,
      "",
    ]);
    expect(result.stderr).toContain(offlineApprovalNote);
  });

  it("answers a POST /runs/wait to research, as curl sends it, from the papers it found", async () => {
    const serving = await serve(["--offline"]);
    const response = await fetch(`${serving.url}/runs/wait`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({
        assistant_id: "research",
        input: {
          messages: [
            {
              role: "user",
              content: 'Find the 3 most relevant arXiv papers on "tool-using LLM agents".',
            },
          ],
        },
      }),
    });
    expect(response.status).toBe(200);
    const values = (await response.json()) as {
      messages: { type: string; content: string; tool_calls?: { name: string }[] }[];
    };
    expect(values.messages.map((message) => message.type)).toEqual(["human", "ai", "tool", "ai"]);
    expect(values.messages[1]?.tool_calls?.map((call) => call.name)).toEqual(["paper_research"]);
    const found = [...(values.messages[2]?.content ?? "").matchAll(/\[(\d+\.\d+v\d+)\]/g)];
    expect(found).toHaveLength(3);
    for (const [, id] of found) expect(lastMessage(values).content).toContain(`arXiv:${id}`);
  });

  it("answers finance with its tools, the deep-search report writer among them", async () => {
    const serving = await serve(["--offline"]);
    const client = new Client({ apiUrl: serving.url });
    const thread = await client.threads.create();
    const values = await client.runs.wait(thread.thread_id, "finance", {
      input: {
        messages: [
          {
            role: "user",
            content: "How did NVDA do in 2024? Chart it and write a short research report.",
          },
        ],
      },
    });
    const messages = (values as { messages: { type: string; content: string; name?: string }[] })
      .messages;
    const toolResults = messages.filter((message) => message.type === "tool");
    expect(toolResults.map((message) => message.content.split("\n")[0])).toEqual(
      expect.arrayContaining([expect.stringMatching(/^NVDA price table/), "# I. Planning"]),
    );
    const report = JSON.parse(lastMessage(values).content) as { summary: string };
    expect(report.summary).toMatch(/^NVDA returned -?\d+\.\d+% from 2024-01-01 to 2024-12-31/);
  });

  it("streams the advisory crew: both analysts' events before the recommender's", async () => {
    const serving = await serve(["--offline"]);
    const client = new Client({ apiUrl: serving.url });
    const events: { type: string; node: string; event?: { type: string; toolName?: string } }[] =
      [];
    for await (const part of client.runs.stream(null, "advisory", {
      input: { messages: [{ role: "user", content: crewQuestion }] },
      streamMode: ["events"],
    })) {
      // The SDK types `events` as LangChain's callback events; this server sends its own.
      if (part.event === "events") events.push(part.data as unknown as (typeof events)[number]);
    }
    const first = (type: string, node: string) =>
      events.findIndex((event) => event.type === type && event.node === node);
    const recommenderStart = first("node_start", "recommender");
    expect(recommenderStart).toBeGreaterThan(0);
    for (const analyst of ["market", "crypto"]) {
      expect(first("node_start", analyst)).toBeGreaterThanOrEqual(0);
      expect(first("node_end", analyst)).toBeGreaterThan(first("node_start", analyst));
      expect(first("node_end", analyst)).toBeLessThan(recommenderStart);
    }
    // The branches run together: both have started before either has ended.
    expect(Math.max(first("node_start", "market"), first("node_start", "crypto"))).toBeLessThan(
      Math.min(first("node_end", "market"), first("node_end", "crypto")),
    );
    // The tools that ask first ran unasked: offline, every call goes to a local fake.
    const toolCalls = events.flatMap((event) =>
      event.type === "agent" && event.event?.type === "tool-result" ? [event.event.toolName] : [],
    );
    expect(toolCalls).toEqual(
      expect.arrayContaining(["fetch_stock_data", "search_api", "fetch_btc_market_data"]),
    );
    expect(events.some((event) => event.type === "interrupt")).toBe(false);
    expect(first("node_end", "recommender")).toBeGreaterThan(recommenderStart);
  });

  it("ends with exit code 0 on SIGTERM, and a restart on the same --db still has the threads", async () => {
    const db = join(cwd, "restart.sqlite");
    const first = await serve(["--offline", "--db", db]);
    const client = new Client({ apiUrl: first.url });
    const thread = await client.threads.create({ metadata: { purpose: "restart" } });
    await client.runs.wait(thread.thread_id, "research", {
      input: { messages: [{ role: "user", content: "agent memory" }] },
    });
    const ended = await terminate(first);
    expect(ended.code).toBe(0);
    expect(ended.stderr).toMatch(/^stopping: /m);

    const second = await serve(["--offline", "--db", db]);
    const again = new Client({ apiUrl: second.url });
    const threads = await again.threads.search({ metadata: { purpose: "restart" } });
    expect(threads.map((found) => found.thread_id)).toEqual([thread.thread_id]);
    const state = await again.threads.getState(thread.thread_id);
    expect(lastMessage(state.values).content).toMatch(/arXiv papers I found on "agent memory"/);
    expect((await terminate(second)).code).toBe(0);
  });
});

describe("pnpm serve on a model service (faked here)", () => {
  let services: FakeServices;

  beforeAll(async () => {
    services = await startFakeServices({ analyst: referenceAnalyst });
  });
  afterAll(async () => {
    await services.close();
  });

  it("pauses the crew's web search for approval, and a run with command.resume answers it", async () => {
    const serving = await serve([], services.environment);
    const client = new Client({ apiUrl: serving.url });
    const thread = await client.threads.create();
    await client.runs.wait(thread.thread_id, "advisory", {
      input: { messages: [{ role: "user", content: crewQuestion }] },
    });
    const paused = await client.threads.get(thread.thread_id);
    expect(paused.status).toBe("interrupted");
    const interrupts = Object.values(paused.interrupts ?? {}).flat();
    expect(interrupts.map((interrupt) => interrupt.value)).toEqual([
      {
        type: "tool-approval",
        call: expect.objectContaining({ toolName: "search_api" }),
      },
    ]);
    expect(services.tavily.requests).toHaveLength(0);

    const values = await client.runs.wait(thread.thread_id, "advisory", {
      command: { resume: true },
    });
    expect(services.tavily.requests).toHaveLength(1);
    expect(values).toMatchObject({ final_recommendation: expect.stringMatching(/^Action: Hold /) });
    expect((await client.threads.get(thread.thread_id)).status).toBe("idle");
  });

  it("refuses to listen beyond this machine, having no authentication", async () => {
    await expect(serve(["--host", "0.0.0.0"], services.environment)).rejects.toThrow(
      /code 2\):\nerror: --host 0\.0\.0\.0: this server has no authentication/,
    );
  });
});

/** The test Postgres (`pnpm services:start`); under CI a missing one fails instead of skipping. */
const postgres = testServices("apps/server", ["postgres"]);
const postgresUrl = postgres.postgresUrl;

describe.skipIf(postgres.missing)("pnpm serve --postgres", () => {
  const schema = uniqueName("serve");
  afterAll(() => postgres.dropSchema(schema));

  it("serves the same threads and runs from two instances on one database", async () => {
    const args = ["--offline", "--postgres", postgresUrl!, "--schema", schema];
    const [first, second] = await Promise.all([serve(args), serve(args)]);
    const [one, other] = [new Client({ apiUrl: first.url }), new Client({ apiUrl: second.url })];
    const thread = await one.threads.create();
    const values = await one.runs.wait(thread.thread_id, "research", {
      input: { messages: [{ role: "user", content: "Find papers on tool-using LLM agents." }] },
    });
    const [run] = await other.runs.list(thread.thread_id);
    expect(run?.status).toBe("success");
    expect((await other.threads.getState(thread.thread_id)).values).toEqual(values);
    // The conversation goes on from the other instance, on the thread the first one wrote.
    let last: unknown;
    for await (const part of other.runs.stream(thread.thread_id, "research", {
      input: { messages: [{ role: "user", content: "And papers on agent memory?" }] },
      streamMode: ["values"],
    })) {
      if (part.event === "values") last = part.data;
    }
    const before = (values as { messages: unknown[] }).messages;
    expect((last as { messages: unknown[] }).messages.slice(0, before.length)).toEqual(before);
    expect((last as { messages: unknown[] }).messages.length).toBeGreaterThan(before.length + 1);
  });
});

const queueServices = testServices("apps/server", ["postgres", "redis"]);

describe.skipIf(queueServices.missing)("pnpm serve --queue and --worker", () => {
  const schema = uniqueName("queue");
  const queueName = uniqueName("queue");
  const shared = [
    "--offline",
    ...["--postgres", queueServices.postgresUrl!, "--schema", schema],
    ...["--redis", queueServices.redisUrl!, "--queue-name", queueName],
  ];
  const working = /^working on queue \S+ ()/m;
  afterAll(async () => {
    await queueServices.dropSchema(schema);
    // The runs' queue and those of their webhooks and crons.
    for (const name of [queueName, webhookQueueName(queueName), cronQueueName(queueName)]) {
      await queueServices.loseQueueKeys(name);
    }
  });

  it("two instances submit and two workers execute: a crew run streamed on one instance is followed live on the other", async () => {
    const [first, second] = await Promise.all([
      serve([...shared, "--queue"]),
      serve([...shared, "--queue"]),
      serve([...shared, "--worker", "--concurrency", "2"], {}, working),
      serve([...shared, "--worker"], {}, working),
    ]);
    const [one, other] = [new Client({ apiUrl: first!.url }), new Client({ apiUrl: second!.url })];
    const thread = await one.threads.create();
    type Part = { id?: string; event: string; data: unknown };
    const read = async (stream: AsyncIterable<Part>) => {
      const parts: Part[] = [];
      for await (const part of stream) parts.push(part);
      return parts;
    };
    const run = await one.runs.create(thread.thread_id, "advisory", {
      input: { messages: [{ role: "user", content: crewQuestion }] },
      streamMode: ["updates", "values"],
    });
    const [streamed, followed] = await Promise.all([
      read(one.runs.joinStream(thread.thread_id, run.run_id)),
      read(other.runs.joinStream(thread.thread_id, run.run_id)),
    ]);
    expect(followed.map((part) => part.id)).toEqual(streamed.map((part) => part.id));
    const nodes = streamed
      .filter((part) => part.event === "updates")
      .flatMap((part) => Object.keys(part.data as object));
    expect(nodes).toEqual(expect.arrayContaining(["market", "crypto", "recommender"]));
    expect((await other.runs.get(thread.thread_id, run.run_id)).status).toBe("success");
    expect((await other.threads.getState(thread.thread_id)).values).toMatchObject({
      final_recommendation: expect.stringMatching(/^Action: /),
    });
  });

  it("refuses --worker without the Redis it meets the instances on", async () => {
    await expect(
      serve(["--offline", "--worker", "--postgres", queueServices.postgresUrl!]),
    ).rejects.toThrow(/--worker needs --postgres <url> and --redis <url>/);
  });
});
