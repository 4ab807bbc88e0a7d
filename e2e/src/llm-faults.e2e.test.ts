import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import {
  AbortedError,
  Agent,
  type AgentResult,
  type ChatStreamPart,
  ModelCallError,
  ModelResponseError,
  ModelTimeoutError,
  OpenAIChatModel,
  type OpenAIChatModelOptions,
  primaryFunction,
  type ToolCallingMode,
} from "@framework/core";
import {
  createCapturingLogger,
  type FakeLLMReply,
  type FakeLLMServer,
  llmHangFault,
  llmMalformedBodyFault,
  llmRateLimitFault,
  llmServerErrorFault,
  llmStreamCutFault,
  mockToolCall,
  openAIErrorBody,
  ReliabilityTally,
  startFakeLLMServer,
  testLlmApiKey,
} from "@framework/testing";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { z } from "zod";
import { abortListeners, activeTimers, settleEventLoop } from "./support/event-loop-leaks.js";
import {
  type UnhandledRejections,
  watchUnhandledRejections,
} from "./support/unhandled-rejections.js";

// Faults and bad model output, through the whole stack a user runs: Agent -> OpenAIChatModel ->
// the real `openai` client -> HTTP -> the fake LLM server. Each case must end (resolve with a
// sensible result, or reject with a typed error), and leave no timer, no abort listener and no
// unhandled rejection behind. Nothing here waits on the clock except the configured timeouts.
const tally = new ReliabilityTally("llm-faults");
let unhandled: UnhandledRejections;
let dir: string;
beforeAll(async () => {
  unhandled = watchUnhandledRejections();
  dir = await mkdtemp(join(tmpdir(), "e2e-llm-faults-"));
});
afterAll(async () => {
  unhandled.stop();
  await rm(dir, { recursive: true, force: true });
  await tally.flush();
});

const get_weather = primaryFunction(
  {
    name: "get_weather",
    description: "Current weather for a city.",
    parameters: z.object({
      city: z.string().min(1),
      unit: z.enum(["celsius", "fahrenheit"]).default("celsius"),
    }),
    returns: "str",
  },
  ({ city, unit }) => `${city}: 21 degrees ${unit}`,
);

interface Harness {
  server: FakeLLMServer;
  agent: Agent;
  llm: OpenAIChatModel;
  logger: ReturnType<typeof createCapturingLogger>;
  signal: AbortSignal;
  controller: AbortController;
}

interface CaseOptions {
  replies?: FakeLLMReply[];
  model?: Partial<OpenAIChatModelOptions>;
  toolCalling?: ToolCallingMode;
  /** The key the server accepts; the model always sends {@link testLlmApiKey}. */
  serverKey?: string;
}

/**
 * Runs one fault case: starts a fake LLM server and an agent on it, runs `body` (which injects
 * `faults` faults and asserts the outcome), closes the server, and checks that the run left
 * nothing behind. The faults count as survived only if all of that holds.
 */
async function faultCase(
  faults: number,
  options: CaseOptions,
  body: (harness: Harness) => Promise<void>,
): Promise<void> {
  await tally.trial(faults, async () => {
    await settleEventLoop();
    const timersBefore = activeTimers();
    const rejectionsBefore = unhandled.reasons.length;
    const server = await startFakeLLMServer({
      apiKey: options.serverKey ?? testLlmApiKey,
      replies: options.replies ?? ["All good."],
    });
    const logger = createCapturingLogger();
    const llm = new OpenAIChatModel({
      baseURL: server.baseURL,
      apiKey: testLlmApiKey,
      model: "fault-model",
      retryBaseDelayMs: 1,
      maxRetries: 4,
      timeoutMs: 60_000,
      logger,
      ...options.model,
    });
    const agent = new Agent({
      description: "You answer questions about the weather.",
      llm,
      tools: [get_weather],
      toolsPath: join(dir, "tools.json"),
      cwd: dir,
      logger,
      ...(options.toolCalling ? { toolCalling: options.toolCalling } : {}),
    });
    await agent.ready;
    const controller = new AbortController();
    try {
      await body({ server, agent, llm, logger, signal: controller.signal, controller });
    } finally {
      await server.close();
    }
    await settleEventLoop();
    expect(abortListeners(controller.signal), "abort listeners left on the run's signal").toBe(0);
    expect(activeTimers(), "timers left running").toBeLessThanOrEqual(timersBefore);
    expect(unhandled.reasons.slice(rejectionsBefore)).toEqual([]);
  });
}

async function failureOf(promise: Promise<unknown>): Promise<unknown> {
  return promise.then(
    () => {
      throw new Error("expected the call to fail");
    },
    (error: unknown) => error,
  );
}

const retryWarnings = (logger: Harness["logger"]) =>
  logger.entries.filter(
    (entry) => entry.level === "warn" && entry.message.startsWith("Retrying request to"),
  );

/** The tool results the model was sent in its second request, in call order. */
function toolResultsSent(server: FakeLLMServer, request = 1): string[] {
  return (server.chatRequests[request]?.messages ?? [])
    .filter((message) => message.role === "tool")
    .map((message) => String(message.content));
}

describe("LLM faults through Agent and OpenAIChatModel", () => {
  it("absorbs a 429 storm without Retry-After, backing off", async () => {
    await faultCase(6, { model: { maxRetries: 6 } }, async ({ server, agent, logger, signal }) => {
      server.injectFaults(...Array.from({ length: 6 }, () => llmRateLimitFault()));
      const result = await agent.invoke("Weather?", { signal });
      expect(result.content).toBe("All good.");
      expect(server.chatRequests).toHaveLength(7);
      const waits = retryWarnings(logger).map((entry) => entry.message);
      expect(waits).toHaveLength(6);
      expect(waits[5]).toBe(
        "Retrying request to /chat/completions in 0.032 seconds (attempt 6/6, HTTP 429)",
      );
    });
  });

  it("absorbs a 429 storm that sends Retry-After and retry-after-ms, waiting as told", async () => {
    await faultCase(4, {}, async ({ server, agent, logger, signal }) => {
      server.injectFaults(
        llmRateLimitFault({ retryAfter: "0" }),
        llmRateLimitFault({ retryAfterMs: 2 }),
        llmRateLimitFault({ retryAfter: "0" }),
        llmRateLimitFault({ retryAfterMs: 3 }),
      );
      await expect(agent.invoke("Weather?", { signal })).resolves.toMatchObject({
        content: "All good.",
      });
      expect(retryWarnings(logger).map((entry) => entry.message.split(" (")[0])).toEqual([
        "Retrying request to /chat/completions in 0 seconds",
        "Retrying request to /chat/completions in 0.002 seconds",
        "Retrying request to /chat/completions in 0 seconds",
        "Retrying request to /chat/completions in 0.003 seconds",
      ]);
    });
  });

  it("rejects with a typed, retryable error when the 429 storm outlasts the retries", async () => {
    await faultCase(4, { model: { maxRetries: 3 } }, async ({ server, agent, signal }) => {
      server.injectFaults(...Array.from({ length: 4 }, () => llmRateLimitFault()));
      const error = await failureOf(agent.invoke("Weather?", { signal }));
      expect(ModelCallError.isInstance(error)).toBe(true);
      expect(error).toMatchObject({ statusCode: 429, attempts: 4, retryable: true, kind: "http" });
      expect(server.chatRequests).toHaveLength(4);
    });
  });

  it("absorbs 500, 502, 503 and 504 in a row, and an HTML 502 from a proxy", async () => {
    await faultCase(5, { model: { maxRetries: 5 } }, async ({ server, agent, signal }) => {
      server.injectFaults(
        llmServerErrorFault(500),
        llmServerErrorFault(502),
        llmServerErrorFault(503),
        llmServerErrorFault(504),
        { status: 502, headers: { "content-type": "text/html" }, body: "<html>Bad gateway</html>" },
      );
      const result = await agent.invoke("Weather?", { signal });
      expect(result.content).toBe("All good.");
      expect(server.chatRequests).toHaveLength(6);
    });
  });

  it("rejects with HTTP 500 once every retry failed", async () => {
    await faultCase(3, { model: { maxRetries: 2 } }, async ({ server, agent, signal }) => {
      server.injectFaults(
        llmServerErrorFault(500),
        llmServerErrorFault(503),
        llmServerErrorFault(),
      );
      const error = await failureOf(agent.invoke("Weather?", { signal }));
      expect(ModelCallError.isInstance(error)).toBe(true);
      expect(error).toMatchObject({ statusCode: 500, attempts: 3, retryable: true });
    });
  });

  it("fails fast on 401 and 403 with non-retryable typed errors", async () => {
    await faultCase(1, { serverKey: "sk-the-only-key-the-server-takes" }, async (h) => {
      const error = await failureOf(h.agent.invoke("Weather?", { signal: h.signal }));
      expect(ModelCallError.isInstance(error)).toBe(true);
      expect(error).toMatchObject({ statusCode: 401, attempts: 1, retryable: false });
      expect(h.server.chatRequests).toHaveLength(1);
    });
    await faultCase(1, {}, async ({ server, agent, signal }) => {
      server.injectFaults({
        status: 403,
        body: openAIErrorBody("This model is not available in your region.", "permission_error"),
      });
      const error = await failureOf(agent.invoke("Weather?", { signal }));
      expect(ModelCallError.isInstance(error)).toBe(true);
      expect(error).toMatchObject({ statusCode: 403, attempts: 1, retryable: false });
      expect((error as Error).message).toContain("not available in your region");
    });
  });

  it("ends a request that hangs at timeoutMs, without retrying it", async () => {
    await faultCase(1, { model: { timeoutMs: 150 } }, async ({ server, agent, signal }) => {
      server.injectFaults(llmHangFault());
      // The clock moves past the limit only once the request is known to hang at the server,
      // however long a busy machine took to send it.
      vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout"] });
      let error: unknown;
      try {
        const pending = failureOf(agent.invoke("Weather?", { signal }));
        while (server.chatRequests.length === 0) {
          await new Promise((resolve) => setImmediate(resolve));
        }
        await vi.advanceTimersByTimeAsync(150);
        error = await pending;
      } finally {
        vi.useRealTimers();
      }
      expect(ModelTimeoutError.isInstance(error)).toBe(true);
      expect(error).toMatchObject({ kind: "timeout", timeoutMs: 150, attempts: 1 });
      expect(server.chatRequests).toHaveLength(1);
    });
  });

  it("retries a connection cut in the middle of the body", async () => {
    await faultCase(1, {}, async ({ server, agent, signal }) => {
      server.injectFaults({
        status: 200,
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ id: "chatcmpl-cut", object: "chat.completion", choices: [] }),
        cutAfterBytes: 20,
      });
      await expect(agent.invoke("Weather?", { signal })).resolves.toMatchObject({
        content: "All good.",
      });
      expect(server.chatRequests).toHaveLength(2);
    });
  });

  it("rejects a body that is not JSON with ModelResponseError, without retrying", async () => {
    await faultCase(1, {}, async ({ server, agent, signal }) => {
      server.injectFaults(llmMalformedBodyFault());
      const error = await failureOf(agent.invoke("Weather?", { signal }));
      expect(ModelResponseError.isInstance(error)).toBe(true);
      expect(error).toMatchObject({ kind: "invalid_response", attempts: 1, retryable: false });
    });
  });

  it("rejects a streamed reply cut off midway with a typed error, and streams after a 429", async () => {
    await faultCase(2, {}, async ({ server, llm, signal }) => {
      const collect = async (stream: AsyncIterable<ChatStreamPart>) => {
        const parts: ChatStreamPart[] = [];
        for await (const part of stream) parts.push(part);
        return parts;
      };
      const request = { messages: [{ role: "user" as const, content: "Stream it." }], signal };
      server.injectFaults(llmStreamCutFault());
      const error = await failureOf(collect(llm.stream(request)));
      expect(ModelCallError.isInstance(error)).toBe(true);
      expect(error).toMatchObject({ kind: "network", retryable: true });
      expect((error as Error).message).toContain("stream");

      server.injectFaults(llmRateLimitFault({ retryAfter: "0" }));
      const parts = await collect(llm.stream(request));
      expect(parts.at(-1)).toMatchObject({ type: "finish" });
    });
  });

  it("stops with AbortedError when the run is cancelled during a retry storm", async () => {
    await faultCase(1, {}, async ({ server, agent, controller, signal }) => {
      server.injectFaults(llmRateLimitFault({ retryAfter: "20" }));
      const run = agent.invoke("Weather?", { signal });
      while (server.chatRequests.length === 0) await settleEventLoop();
      await settleEventLoop();
      controller.abort();
      await expect(run).rejects.toSatisfy(AbortedError.isInstance);
    });
  });
});

describe("bad tool calls from the model, through the real client", () => {
  // Each case: the model's first reply holds the bad calls, its second answers from the results.
  const answerFromResults: FakeLLMReply = (request) =>
    `Results: ${request.messages.filter((m) => m.role === "tool").length}`;

  async function badCalls(
    calls: ReturnType<typeof mockToolCall>[],
    check: (result: AgentResult, sent: string[]) => void,
  ) {
    await faultCase(
      calls.length,
      { replies: [{ toolCalls: calls }, answerFromResults] },
      async ({ server, agent, signal }) => {
        const result = await agent.invoke("Weather in Hanoi?", { signal });
        expect(result.content).toBe(`Results: ${calls.length}`);
        expect(result.iterations).toBe(2);
        check(result, toolResultsSent(server));
      },
    );
  }

  it("sends back an error result for arguments that are not valid JSON", async () => {
    await badCalls(
      [mockToolCall("get_weather", '{"city": "Hanoi"', "c1"), mockToolCall("get_weather", "Hanoi")],
      (result, sent) => {
        expect(result.toolCalls.map((call) => call.ok)).toEqual([false, false]);
        for (const text of sent) {
          expect(text).toMatch(
            /^Error: Invalid arguments for tool get_weather: \(arguments\): expected a JSON object/,
          );
        }
      },
    );
  });

  it("sends back an error result for unknown tools, naming the available ones", async () => {
    await badCalls(
      [mockToolCall("get_wether", { city: "Hanoi" }), mockToolCall("", {})],
      (_, sent) => {
        expect(sent[0]).toBe('Error: Unknown tool "get_wether". Available tools: get_weather.');
        expect(sent[1]).toMatch(/^Error: Unknown tool ""/);
      },
    );
  });

  it("sends back the schema's complaints for arguments that fail it", async () => {
    await badCalls(
      [
        mockToolCall("get_weather", { city: "" }),
        mockToolCall("get_weather", { city: "Hanoi", unit: "kelvin" }),
        mockToolCall("get_weather", { town: "Hanoi" }),
      ],
      (_, sent) => {
        expect(sent).toHaveLength(3);
        for (const text of sent)
          expect(text).toMatch(/^Error: Invalid arguments for tool get_weather: /);
        expect(sent[1]).toContain("unit");
      },
    );
  });

  it("copes with a 5 MB arguments string, valid or not, and caps what the model sees", async () => {
    const hugeCity = "x".repeat(5 * 1024 * 1024);
    await badCalls(
      [
        mockToolCall("get_weather", { city: hugeCity }),
        mockToolCall("get_weather", `{"city": "${hugeCity}`),
      ],
      (result, sent) => {
        expect(result.toolCalls.map((call) => call.ok)).toEqual([true, false]);
        const fullOutput = `${hugeCity}: 21 degrees celsius`;
        expect(sent[0]).toBe(
          `${fullOutput.slice(0, 20_000)}\n…[truncated: showing 20000 of ${fullOutput.length} characters]`,
        );
        expect(sent[1]?.length).toBeLessThan(1_000);
      },
    );
  });

  it("copes with arguments nested 10,000 levels deep", async () => {
    const deep = `${"[".repeat(10_000)}${"]".repeat(10_000)}`;
    await badCalls([mockToolCall("get_weather", `{"city": ${deep}}`)], (_, sent) => {
      expect(sent[0]).toMatch(/^Error: Invalid arguments for tool get_weather: city: /);
    });
  });

  it("answers with any text in JSON mode, however broken or deeply nested", async () => {
    const replies = [
      `I would call {"tool_name": "get_weather", "arguments": {"city": "Hanoi"} but I won't`,
      `${"[{".repeat(20_000)}`,
      `${"[".repeat(50_000)}${"]".repeat(50_000)}`,
    ];
    for (const reply of replies) {
      await faultCase(1, { replies: [reply], toolCalling: "json" }, async ({ agent, signal }) => {
        const result = await agent.invoke("Weather?", { signal });
        expect(result.content).toBe(reply);
        expect(result.toolCalls).toEqual([]);
      });
    }
  });
});
