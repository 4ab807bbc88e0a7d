// The client side of item 11, in the bench's process: LangGraph's own SDK client, as an app
// would call either server (or the floor) with it.
import { Client } from "@langchain/langgraph-sdk";
import { runInput } from "./server-our-graph.js";
import { type RecordedAnswer, type RecordedAnswers, routeKey } from "./server-recorded.js";

/** The graph (and so the assistant) both servers serve. */
export const assistantId = "pair";

/** Steps of the streamed run: five rounds of the two nodes. */
export const streamedSteps = 10;

/** A client of the server at `url`: no key, no retry (a failure must fail the row, not hide). */
export function serverClient(url: string, fetch?: typeof globalThis.fetch): Client {
  return new Client({ apiUrl: url, apiKey: null, callerOptions: { maxRetries: 0, fetch } });
}

/** Creates `count` threads, `concurrency` requests at a time; resolves to their ids. */
export async function createThreads(
  client: Client,
  count: number,
  concurrency = 20,
): Promise<string[]> {
  const ids: string[] = [];
  for (let start = 0; start < count; start += concurrency) {
    const batch = Math.min(concurrency, count - start);
    const threads = await Promise.all(Array.from({ length: batch }, () => client.threads.create()));
    ids.push(...threads.map((thread) => thread.thread_id));
  }
  return ids;
}

/** Runs the graph once (one round, two steps) on `threadId` with `runs.wait`. */
export async function waitRun(client: Client, threadId: string): Promise<void> {
  const values = (await client.runs.wait(threadId, assistantId, { input: runInput(1) })) as {
    approved?: boolean;
    draft?: string;
  };
  if (values.approved !== true || values.draft !== "draft for: hello") {
    throw new Error(`runs.wait answered ${JSON.stringify(values)}`);
  }
}

/** When the events of a streamed run came, in milliseconds from the request. */
export interface StreamTimes {
  /** The first event (`metadata`). */
  readonly firstMs: number;
  /** The last event, the run's last update. */
  readonly lastMs: number;
  /** The end of the response. */
  readonly closeMs: number;
}

/**
 * Streams a run of {@link streamedSteps} steps (`updates` mode) on `threadId`, checking that
 * it got the metadata event and one update per step.
 */
export async function streamRun(client: Client, threadId: string): Promise<StreamTimes> {
  const started = performance.now();
  let firstMs: number | undefined;
  let lastMs = 0;
  const events: string[] = [];
  for await (const part of client.runs.stream(threadId, assistantId, {
    input: runInput(streamedSteps / 2),
    streamMode: "updates",
  })) {
    lastMs = performance.now() - started;
    firstMs ??= lastMs;
    events.push(part.event);
  }
  const closeMs = performance.now() - started;
  const expected = ["metadata", ...Array.from({ length: streamedSteps }, () => "updates")];
  if (events.join() !== expected.join()) {
    throw new Error(`the stream sent ${events.join(", ") || "nothing"}`);
  }
  return { firstMs: firstMs!, lastMs, closeMs };
}

// Headers that belong to one connection or one moment, not to the answer.
const unreplayed = new Set([
  "content-length",
  "transfer-encoding",
  "connection",
  "keep-alive",
  "date",
]);

async function recorded(response: Response): Promise<RecordedAnswer> {
  const text = await response.text();
  const stream = response.headers.get("content-type")?.startsWith("text/event-stream");
  // An SSE body in its frames, each ending in its blank line, as a server writes them.
  const pieces = stream ? (text.match(/[\s\S]*?\n\n/g) ?? [text]) : [text];
  if (pieces.join("") !== text) throw new Error("the stream did not end with a whole frame");
  return {
    status: response.status,
    headers: [...response.headers].filter(([name]) => !unreplayed.has(name)),
    pieces,
  };
}

/**
 * What the server at `url` answers the requests of one thread creation, one `runs.wait` and
 * one streamed run, recorded as the SDK sent them, by {@link routeKey}: what the floor replays.
 */
export async function recordAnswers(url: string): Promise<RecordedAnswers> {
  const answers: Record<string, Promise<RecordedAnswer>> = {};
  const recording: typeof fetch = async (request, init) => {
    const response = await fetch(request, init);
    const method = init?.method ?? (request instanceof Request ? request.method : "GET");
    const path = new URL(request instanceof Request ? request.url : String(request)).pathname;
    answers[routeKey(method, path)] = recorded(response.clone());
    return response;
  };
  const client = serverClient(url, recording);
  const [waited, streamed] = await createThreads(client, 2);
  await waitRun(client, waited!);
  await streamRun(client, streamed!);
  const keys = Object.keys(answers);
  const values = await Promise.all(Object.values(answers));
  return Object.fromEntries(keys.map((key, index) => [key, values[index]!]));
}
