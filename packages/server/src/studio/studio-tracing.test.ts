import { MockChatModel } from "@framework/testing";
import { context, trace } from "@opentelemetry/api";
import { AsyncLocalStorageContextManager } from "@opentelemetry/context-async-hooks";
import {
  BasicTracerProvider,
  InMemorySpanExporter,
  SimpleSpanProcessor,
  type SpanProcessor,
} from "@opentelemetry/sdk-trace-base";
import { afterEach, describe, expect, it } from "vitest";
import { startTestServer, type TestServer, testAgent } from "../test-server.js";
import { StudioSpanProcessor } from "./studio-span-processor.js";

let running: TestServer | undefined;
afterEach(async () => {
  await running?.close();
  running = undefined;
  trace.disable();
  context.disable();
});

/** An app's own OpenTelemetry setup: a global provider (and context manager) it registered. */
function appProvider(...processors: SpanProcessor[]) {
  const exporter = new InMemorySpanExporter();
  const spanProcessors = [...processors, new SimpleSpanProcessor(exporter)];
  trace.setGlobalTracerProvider(new BasicTracerProvider({ spanProcessors }));
  context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable());
  return exporter;
}

async function oneRun(server: TestServer): Promise<{ threadId: string; runId: string }> {
  const post = (path: string, body: unknown) =>
    fetch(`${server.url}${path}`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify(body),
    }).then((answer) => answer.json() as Promise<Record<string, string>>);
  const { thread_id: threadId } = await post("/threads", {});
  const { run_id: runId } = await post(`/threads/${threadId}/runs`, {
    assistant_id: "banker",
    input: { messages: [{ role: "user", content: "hi" }] },
  });
  await fetch(`${server.url}/threads/${threadId}/runs/${runId}/join`);
  return { threadId: threadId!, runId: runId! };
}

type Trace = { recording: boolean; spans: { name: string }[] };

describe("the studio's spans beside an app's own OpenTelemetry provider", () => {
  it("never replaces the app's provider: without its processor, the Traces view records nothing", async () => {
    const exporter = appProvider();
    running = await startTestServer({
      agents: { banker: testAgent(new MockChatModel(["Hello."])) },
      studio: true,
    });
    const { threadId, runId } = await oneRun(running);
    const answer = (await (
      await fetch(`${running.url}/threads/${threadId}/runs/${runId}/trace`)
    ).json()) as Trace;
    expect(answer).toMatchObject({ recording: false, spans: [] });
    // The app's exporter still got the run's spans.
    expect(exporter.getFinishedSpans().map((span) => span.name)).toContain("graph_run");
  });

  it("records through a StudioSpanProcessor the app added to its provider, and the app's exporter still gets every span", async () => {
    const spanProcessor = new StudioSpanProcessor();
    const exporter = appProvider(spanProcessor);
    running = await startTestServer({
      agents: { banker: testAgent(new MockChatModel(["Hello."])) },
      studio: { spanProcessor },
    });
    const { threadId, runId } = await oneRun(running);
    const answer = (await (
      await fetch(`${running.url}/threads/${threadId}/runs/${runId}/trace`)
    ).json()) as Trace;
    expect(answer.recording).toBe(true);
    expect(answer.spans.map((span) => span.name)[0]).toBe("graph_run");
    expect(answer.spans.length).toBe(exporter.getFinishedSpans().length);
  });
});
