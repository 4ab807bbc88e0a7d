import { randomUUID } from "node:crypto";
import { MockChatModel } from "@framework/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { apiKeyAuth } from "./auth/api-key-auth.js";
import { whoAmIGraph } from "./auth/test-auth.js";
import { startTestServer, type TestServer, testAgent } from "./test-server.js";

const keys = {
  "tenant-test-key-alice-5d1f0c7a9b3e": "alice",
  "tenant-test-key-bob-8e2a6c4f1d0b": "bob",
} as const;
type User = (typeof keys)[keyof typeof keys];
const keyOf = (user: User) => Object.entries(keys).find(([, id]) => id === user)![0];

/** The ids a route's path and body are filled with. */
interface Ids {
  thread: string;
  run: string;
  checkpoint: string;
  cron: string;
}

/** One request to a route: its query string and JSON body, given the ids to use. */
interface Call {
  query?: string;
  body?: (ids: Ids) => unknown;
}

const runBody = () => ({ assistant_id: "who", input: { question: "whose is this?" } });

/**
 * Every route that takes a thread or run id, and how the test calls it. A route the API
 * description lists that is missing here fails the test: whoever adds it must show here that
 * another user gets a 404 from it.
 */
const ownedRoutes: Readonly<Record<string, readonly Call[]>> = {
  "GET /threads/{thread_id}": [{}],
  "PATCH /threads/{thread_id}": [{ body: () => ({ metadata: { hijacked: true } }) }],
  "DELETE /threads/{thread_id}": [{}],
  "GET /threads/{thread_id}/state": [{}],
  "GET /threads/{thread_id}/state/{checkpoint_id}": [{}],
  "POST /threads/{thread_id}/state/checkpoint": [
    { body: (ids) => ({ checkpoint: { checkpoint_id: ids.checkpoint } }) },
  ],
  "POST /threads/{thread_id}/history": [{ body: () => ({}) }],
  "POST /threads/{thread_id}/state": [{ body: () => ({ values: { question: "hijacked?" } }) }],
  "POST /threads/{thread_id}/runs": [
    { body: runBody },
    { body: () => ({ ...runBody(), command: { resume: true } }) },
  ],
  "POST /threads/{thread_id}/runs/stream": [{ body: runBody }],
  "POST /threads/{thread_id}/runs/wait": [{ body: runBody }],
  "GET /threads/{thread_id}/runs": [{}],
  "GET /threads/{thread_id}/runs/{run_id}": [{}],
  "DELETE /threads/{thread_id}/runs/{run_id}": [{}],
  "GET /threads/{thread_id}/runs/{run_id}/join": [{}],
  "GET /threads/{thread_id}/runs/{run_id}/stream": [{}],
  "POST /threads/{thread_id}/runs/{run_id}/cancel": [
    {},
    { query: "?wait=1" },
    { query: "?action=rollback" },
  ],
  "GET /runs/{run_id}/stream": [{}],
  "POST /threads/{thread_id}/runs/crons": [
    { body: () => ({ assistant_id: "who", schedule: "* * * * *" }) },
  ],
  "PATCH /runs/crons/{cron_id}": [{ body: () => ({ enabled: true }) }],
  "DELETE /runs/crons/{cron_id}": [{}],
  "GET /agents/{name}/chat/{thread_id}/stream": [{}],
};

/** Path parameters that name something every user may see. */
const publicParameters = new Set(["assistant_id", "name"]);
/** Path parameters that name something a user owns. */
const ownedParameters = new Set(["thread_id", "run_id", "checkpoint_id", "cron_id"]);

let running: TestServer;
/** What alice made, which bob must not reach. */
let alice: Ids;
/** bob's own thread. */
let bobThread: string;

async function call(
  user: User,
  method: string,
  path: string,
  body?: unknown,
): Promise<{ status: number; text: string }> {
  const response = await fetch(`${running.url}${path}`, {
    method,
    headers: { "x-api-key": keyOf(user), "content-type": "application/json" },
    body: body === undefined ? null : JSON.stringify(body),
  });
  return { status: response.status, text: await response.text() };
}

async function json<T>(user: User, method: string, path: string, body?: unknown): Promise<T> {
  const { status, text } = await call(user, method, path, body);
  expect(status, `${method} ${path}: ${text}`).toBe(200);
  return JSON.parse(text) as T;
}

function fill(path: string, ids: Ids): string {
  return path
    .replace("{name}", "talker")
    .replace("{thread_id}", encodeURIComponent(ids.thread))
    .replace("{run_id}", encodeURIComponent(ids.run))
    .replace("{checkpoint_id}", encodeURIComponent(ids.checkpoint))
    .replace("{cron_id}", encodeURIComponent(ids.cron));
}

/** The answer with the ids it names replaced, so answers about different ids compare. */
function withoutIds(text: string, ids: Ids): string {
  return text
    .replaceAll(ids.thread, "<thread>")
    .replaceAll(ids.run, "<run>")
    .replaceAll(ids.checkpoint, "<checkpoint>")
    .replaceAll(ids.cron, "<cron>");
}

const randomIds = (): Ids => ({
  thread: randomUUID(),
  run: randomUUID(),
  checkpoint: randomUUID(),
  cron: randomUUID(),
});

beforeAll(async () => {
  running = await startTestServer({
    graphs: { who: whoAmIGraph() },
    agents: { talker: testAgent(new MockChatModel([], { defaultReply: "hello" })) },
    auth: apiKeyAuth({ keys }),
  });
  const thread = await json<{ thread_id: string }>("alice", "POST", "/threads", {
    metadata: { team: "alice's" },
  });
  // A node sees the authenticated user, whatever the request's configurable says.
  const values = await json<{ userId?: string }>(
    "alice",
    "POST",
    `/threads/${thread.thread_id}/runs/wait`,
    { ...runBody(), config: { configurable: { user_id: "bob" } } },
  );
  expect(values.userId).toBe("alice");
  const [run] = await json<{ run_id: string }[]>(
    "alice",
    "GET",
    `/threads/${thread.thread_id}/runs`,
  );
  const [state] = await json<{ checkpoint: { checkpoint_id: string } }[]>(
    "alice",
    "POST",
    `/threads/${thread.thread_id}/history`,
    {},
  );
  // Disabled, so it never runs on the thread this test checks is left as it was.
  const cron = await json<{ cron_id: string }>(
    "alice",
    "POST",
    `/threads/${thread.thread_id}/runs/crons`,
    { assistant_id: "who", schedule: "0 9 * * *", enabled: false },
  );
  alice = {
    thread: thread.thread_id,
    run: run!.run_id,
    checkpoint: state!.checkpoint.checkpoint_id,
    cron: cron.cron_id,
  };

  bobThread = (await json<{ thread_id: string }>("bob", "POST", "/threads", {})).thread_id;
  const bobs = await json<{ userId?: string }>("bob", "POST", `/threads/${bobThread}/runs/wait`, {
    ...runBody(),
    config: { configurable: { user_id: "alice" } },
  });
  expect(bobs.userId).toBe("bob");
});

afterAll(async () => {
  await running.close();
});

describe("tenant isolation", () => {
  it("lists every route taking a thread or run id, and every path parameter, as checked here", async () => {
    const document = await (await fetch(`${running.url}/openapi.json`)).json();
    const paths = (document as { paths: Record<string, Record<string, unknown>> }).paths;
    const methods = new Set(["get", "put", "post", "patch", "delete"]);
    const routes = Object.entries(paths).flatMap(([path, item]) =>
      Object.keys(item)
        .filter((method) => methods.has(method))
        .map((method) => `${method.toUpperCase()} ${path}`),
    );
    const parameters = (route: string) => [...route.matchAll(/\{(\w+)\}/g)].map((m) => m[1]!);
    const owned = routes.filter((route) =>
      parameters(route).some(
        (name) => name === "thread_id" || name === "run_id" || name === "cron_id",
      ),
    );
    expect(
      owned.filter((route) => !(route in ownedRoutes)),
      "routes nobody checked",
    ).toEqual([]);
    expect(
      Object.keys(ownedRoutes).filter((route) => !owned.includes(route)),
      "checked routes the server no longer has",
    ).toEqual([]);
    // A route naming something by another parameter must say whether users own it.
    const unknown = routes.filter((route) =>
      parameters(route).some((name) => !publicParameters.has(name) && !ownedParameters.has(name)),
    );
    expect(unknown, "routes with a path parameter this test does not know").toEqual([]);
  });

  it("answers another user's thread, run, state and stream ids as it answers ids that do not exist", async () => {
    const checks: string[] = [];
    for (const [route, calls] of Object.entries(ownedRoutes)) {
      const [method, path] = route.split(" ") as [string, string];
      const takesRunOrCheckpoint =
        /\{(run_id|checkpoint_id)\}/.test(path) || route.includes("state/checkpoint");
      for (const { query = "", body } of calls) {
        // alice's ids; then bob's own thread with alice's run or checkpoint.
        const cases: [Ids, Ids][] = [[alice, randomIds()]];
        if (takesRunOrCheckpoint) {
          cases.push([
            { ...alice, thread: bobThread },
            { ...randomIds(), thread: bobThread },
          ]);
        }
        for (const [theirs, nobodys] of cases) {
          const label = `bob: ${method} ${fill(path, theirs)}${query}`;
          const answer = await call("bob", method, fill(path, theirs) + query, body?.(theirs));
          const baseline = await call("bob", method, fill(path, nobodys) + query, body?.(nobodys));
          expect(answer.status, `${label}: ${answer.text}`).toBe(404);
          expect(JSON.parse(answer.text).error.type, label).toBe("ResourceNotFoundError");
          expect(withoutIds(answer.text, theirs), label).toBe(withoutIds(baseline.text, nobodys));
          checks.push(label);
        }
      }
    }
    expect(checks.length).toBeGreaterThanOrEqual(Object.keys(ownedRoutes).length);

    // And nothing bob tried changed alice's thread or runs.
    const thread = await json<{ metadata: Record<string, unknown> }>(
      "alice",
      "GET",
      `/threads/${alice.thread}`,
    );
    expect(thread.metadata).toEqual({ team: "alice's" });
    const runs = await json<{ run_id: string; status: string }[]>(
      "alice",
      "GET",
      `/threads/${alice.thread}/runs`,
    );
    expect(runs.map((run) => [run.run_id, run.status])).toEqual([[alice.run, "success"]]);
    const state = await json<{ values: { userId?: string } }>(
      "alice",
      "GET",
      `/threads/${alice.thread}/state`,
    );
    expect(state.values.userId).toBe("alice");
    const [cron] = await json<{ cron_id: string; enabled: boolean }[]>(
      "alice",
      "POST",
      "/runs/crons/search",
      {},
    );
    expect(cron).toMatchObject({ cron_id: alice.cron, enabled: false });
  });

  it("refuses a chat turn into another user's thread (the chat id is a thread id)", async () => {
    const turn = {
      id: alice.thread,
      messages: [{ id: "m1", role: "user", parts: [{ type: "text", text: "let me in" }] }],
    };
    const answer = await call("bob", "POST", "/agents/talker/chat", turn);
    expect(answer.status, answer.text).toBe(404);
    expect(JSON.parse(answer.text).error.type).toBe("ResourceNotFoundError");
    const runs = await json<unknown[]>("alice", "GET", `/threads/${alice.thread}/runs`);
    expect(runs).toHaveLength(1);
  });

  it("searches only the caller's threads", async () => {
    const ids = async (user: User, search: object) =>
      (await json<{ thread_id: string }[]>(user, "POST", "/threads/search", search)).map(
        (thread) => thread.thread_id,
      );
    expect(await ids("bob", {})).toEqual([bobThread]);
    expect(await ids("bob", { ids: [alice.thread] })).toEqual([]);
    expect(await ids("bob", { metadata: { team: "alice's" } })).toEqual([]);
    const alices = await ids("alice", {});
    expect(alices).toContain(alice.thread);
    expect(alices).not.toContain(bobThread);
  });

  it("runs a thread-less run as the authenticated user, whatever its config says", async () => {
    const values = await json<{ userId?: string }>("bob", "POST", "/runs/wait", {
      ...runBody(),
      config: { configurable: { user_id: "alice" } },
    });
    expect(values.userId).toBe("bob");
  });
});
