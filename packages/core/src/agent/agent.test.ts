import { mkdir, readdir, readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { createCapturingLogger, MockChatModel, mockToolCall } from "@framework/testing";
import { SignJWT } from "jose";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { z } from "zod";
import * as weatherTools from "../../test/fixtures/weather-tools.js";
import { createAuthCard } from "../auth/auth-card.js";
import { AbortedError } from "../error/aborted-error.js";
import { AuthenticationError } from "../error/authentication-error.js";
import { RegistryFileError } from "../error/registry-file-error.js";
import type { ChatRequest, ToolMessage } from "../model/chat-model.js";
import { temporaryDirectory } from "../registry/test-temporary-directory.js";
import { primaryFunction } from "../tool/primary-function.js";
import { Agent, type AgentOptions } from "./agent.js";
import type { AgentEvent } from "./agent-event.js";

let dir: string;
let cleanup: () => Promise<void>;
beforeEach(async () => {
  ({ dir, cleanup } = await temporaryDirectory());
});
afterEach(() => cleanup());

const toolMessages = (request: ChatRequest | undefined) =>
  (request?.messages ?? []).filter((m): m is ToolMessage => m.role === "tool");

function agentWith(llm: MockChatModel, options: Partial<AgentOptions> = {}) {
  const logger = createCapturingLogger();
  const agent = new Agent({
    description: "You are a helpful assistant.",
    llm,
    tools: [weatherTools],
    cwd: dir,
    logger,
    ...options,
  });
  return { agent, logger };
}

describe("Agent.invoke", () => {
  it("runs the tool loop with the specification's log lines and returns the final answer", async () => {
    const llm = new MockChatModel([
      { toolCalls: [mockToolCall("get_weather", { city: "Hanoi" })] },
      { toolCalls: [mockToolCall("add", { a: 2, b: 3 })] },
      "It is 21 degrees in Hanoi, and 2 + 3 = 5.",
    ]);
    const { agent, logger } = agentWith(llm);
    const result = await agent.invoke("Weather in Hanoi? And 2+3?");

    expect(result.content).toBe("It is 21 degrees in Hanoi, and 2 + 3 = 5.");
    expect(result.iterations).toBe(3);
    expect(result.finishReason).toBe("stop");
    expect(result.toolCalls.map((c) => [c.toolName, c.ok, c.output])).toEqual([
      ["get_weather", true, "Hanoi: 21 degrees celsius"],
      ["add", true, "5"],
    ]);
    const loopLines = logger.infos.filter((line) => !line.startsWith("Registered"));
    expect(loopLines).toEqual([
      "Completed registration for module inline",
      "No authentication card provided, skipping authentication",
      "I'am chatting with unknown_user",
      "Tool calling iteration 1/10",
      'Executing tool call: {"tool_name":"get_weather","tool_type":"module","module_path":"inline","arguments":{"city":"Hanoi"}}',
      'Completed executing module tool get_weather({"city":"Hanoi","unit":"celsius"})',
      "Tool calling iteration 2/10",
      'Executing tool call: {"tool_name":"add","tool_type":"module","module_path":"inline","arguments":{"a":2,"b":3}}',
      'Completed executing module tool add({"a":2,"b":3})',
      "Tool calling iteration 3/10",
      "No more tool calls needed. Completed in 3 iterations.",
    ]);
  });

  it("offers the tools to the model and sends the system prompt and query", async () => {
    const llm = new MockChatModel(["Hello."]);
    const { agent } = agentWith(llm, { skills: ["Report the weather"], instruction: "Be brief." });
    await agent.invoke("Hi", { userId: "u42" });
    const [request] = llm.calls;
    expect(request?.tools?.map((t) => t.name)).toEqual(["get_weather", "add"]);
    expect(request?.messages[0]?.role).toBe("system");
    const system = request?.messages[0]?.content ?? "";
    expect(system).toContain("You are a helpful assistant.");
    expect(system).toContain("- Report the weather");
    expect(system).toContain("Be brief.");
    expect(system).toContain("never as a plain string");
    expect(request?.messages[1]).toEqual({ role: "user", content: "Hi" });
  });

  it("logs the caller's user id when there is no card", async () => {
    const { agent, logger } = agentWith(new MockChatModel(["ok"]));
    await agent.invoke("Hi", { userId: "u42" });
    expect(logger.infos).toContain("I'am chatting with u42");
  });

  it("runs the tool calls of one reply concurrently and returns results in call order", async () => {
    const events: string[] = [];
    const slow = (name: string, ms: number) =>
      primaryFunction(
        { name, description: "d", parameters: z.object({}), returns: "str" },
        async () => {
          events.push(`start ${name}`);
          await new Promise((resolve) => setTimeout(resolve, ms));
          events.push(`end ${name}`);
          return `${name} done`;
        },
      );
    const llm = new MockChatModel([
      { toolCalls: [mockToolCall("first", {}, "c1"), mockToolCall("second", {}, "c2")] },
      "Both done.",
    ]);
    const { agent } = agentWith(llm, { tools: [slow("first", 30), slow("second", 5)] });
    await agent.invoke("go");
    expect(events).toEqual(["start first", "start second", "end second", "end first"]);
    expect(toolMessages(llm.calls[1])).toEqual([
      { role: "tool", toolCallId: "c1", name: "first", content: "first done" },
      { role: "tool", toolCallId: "c2", name: "second", content: "second done" },
    ]);
  });

  it("turns bad tool calls into error results the model sees, and carries on", async () => {
    const boom = primaryFunction(
      { name: "boom", description: "d", parameters: z.object({}), returns: "x" },
      () => {
        throw new Error("kaboom");
      },
    );
    const llm = new MockChatModel([
      {
        toolCalls: [
          mockToolCall("launch_missiles", {}),
          mockToolCall("add", { a: "one", b: 2 }),
          mockToolCall("get_weather", "Hanoi"),
          mockToolCall("get_weather", '{"city": "Hanoi"'),
          mockToolCall("boom", {}),
        ],
      },
      "Sorry, those tools failed.",
    ]);
    const { agent } = agentWith(llm, { tools: [weatherTools, boom] });
    const result = await agent.invoke("do things");
    expect(result.content).toBe("Sorry, those tools failed.");
    const outputs = toolMessages(llm.calls[1]).map((m) => m.content);
    expect(outputs).toEqual([
      'Error: Unknown tool "launch_missiles". Available tools: get_weather, add, boom.',
      "Error: Invalid arguments for tool add: a: Invalid input: expected number, received string",
      'Error: Invalid arguments for tool get_weather: (arguments): expected a JSON object of named arguments, got a plain string: "Hanoi"',
      'Error: Invalid arguments for tool get_weather: (arguments): expected a JSON object of named arguments, got a plain string: "{\\"city\\": \\"Hanoi\\""',
      'Error: Tool "boom" failed: kaboom',
    ]);
    expect(result.toolCalls.every((call) => !call.ok && call.error)).toBe(true);
  });

  it("ends exhausted iterations with one call without tools and keeps the work", async () => {
    const llm = new MockChatModel([], {
      defaultReply: (request) =>
        request.toolChoice === "none"
          ? "Final answer from what I have."
          : { toolCalls: [mockToolCall("add", { a: 1, b: 1 })] },
    });
    const { agent, logger } = agentWith(llm);
    const result = await agent.invoke("loop forever", { maxIterations: 3 });
    expect(result).toMatchObject({
      content: "Final answer from what I have.",
      iterations: 3,
      finishReason: "max_iterations",
    });
    expect(result.toolCalls).toHaveLength(3);
    expect(llm.calls).toHaveLength(4);
    expect(llm.calls[3]?.toolChoice).toBe("none");
    expect(logger.infos.filter((l) => l.startsWith("Tool calling iteration"))).toEqual([
      "Tool calling iteration 1/3",
      "Tool calling iteration 2/3",
      "Tool calling iteration 3/3",
    ]);
  });

  it("sums token usage over every model call", async () => {
    const usage = { inputTokens: 10, outputTokens: 5, totalTokens: 15 };
    const llm = new MockChatModel([
      { toolCalls: [mockToolCall("add", { a: 1, b: 2 })], usage },
      { content: "3", usage },
    ]);
    const { agent } = agentWith(llm);
    expect((await agent.invoke("1+2")).usage).toEqual({
      inputTokens: 20,
      outputTokens: 10,
      totalTokens: 30,
    });
  });

  it("stops when its signal is aborted, also while a tool runs", async () => {
    const controller = new AbortController();
    const waiting = primaryFunction(
      { name: "wait_for_abort", description: "d", parameters: z.object({}), returns: "x" },
      (_args, { signal }) =>
        new Promise((_, reject) => {
          signal.addEventListener("abort", () => reject(new Error("tool cancelled")));
          controller.abort();
        }),
    );
    const llm = new MockChatModel([{ toolCalls: [mockToolCall("wait_for_abort")] }, "never"]);
    const { agent } = agentWith(llm, { tools: [waiting] });
    const error = await agent.invoke("go", { signal: controller.signal }).catch((e: unknown) => e);
    expect(AbortedError.isInstance(error)).toBe(true);
    expect(llm.calls).toHaveLength(1);

    const before = new MockChatModel(["never"]);
    const aborted = AbortSignal.abort();
    const early = await agentWith(before)
      .agent.invoke("go", { signal: aborted })
      .catch((e: unknown) => e);
    expect(AbortedError.isInstance(early)).toBe(true);
    expect(before.calls).toHaveLength(0);
  });
});

describe("Agent in JSON tool-calling mode", () => {
  it("parses the specification's tool-call object out of noisy text and sends results back", async () => {
    const call = {
      tool_name: "get_weather",
      tool_type: "module",
      module_path: "inline",
      arguments: { city: "Paris" },
    };
    const llm = new MockChatModel([
      `I'll check.\n\`\`\`json\n${JSON.stringify(call)}\n\`\`\`\nOne moment.`,
      "It is 21 degrees in Paris.",
    ]);
    const { agent } = agentWith(llm, { toolCalling: "json" });
    const result = await agent.invoke("Weather in Paris?");
    expect(result.content).toBe("It is 21 degrees in Paris.");
    expect(llm.calls[0]?.tools).toBeUndefined();
    expect(llm.calls[0]?.messages[0]?.content).toContain('"tool_name":"get_weather"');
    const last = llm.calls[1]?.messages.at(-1);
    expect(last?.role).toBe("user");
    expect(last?.content).toMatch(
      /^Result of tool call call_.+ \(get_weather\):\nParis: 21 degrees celsius$/,
    );
  });

  it("refuses a call naming another module_path, importing nothing", async () => {
    const llm = new MockChatModel([
      JSON.stringify({
        tool_name: "add",
        module_path: "node:child_process",
        arguments: { a: 1, b: 1 },
      }),
      "ok",
    ]);
    const { agent } = agentWith(llm, { toolCalling: "json" });
    const result = await agent.invoke("x");
    expect(result.toolCalls[0]?.output).toBe(
      'Error: Refused tool call "add": module_path "node:child_process" does not match the registered "inline".',
    );
  });
});

describe("Agent registration", () => {
  it("does no file I/O when created, only once its tools are needed", async () => {
    const { agent } = agentWith(new MockChatModel(["hi"]));
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(await readdir(dir)).toEqual([]);
    await agent.ready;
    expect(await readdir(dir)).toEqual(["templates"]);
  });

  it("with toolsPath: false, never reads or writes a registry file", async () => {
    const llm = new MockChatModel([{ toolCalls: [mockToolCall("add", { a: 2, b: 3 })] }, "5"]);
    const { agent } = agentWith(llm, { toolsPath: false, resetTools: true });
    agent.toolRegistry.registerFunctionTool(
      primaryFunction(
        { name: "ping", description: "d", parameters: z.object({}), returns: "str" },
        () => "pong",
      ),
    );
    const result = await agent.invoke("2+3?");
    expect(result.toolCalls.map((call) => call.output)).toEqual(["5"]);
    expect(await readdir(dir)).toEqual([]);
  });

  it("is ready after Agent.create and records its tools in the registry file", async () => {
    const agent = await Agent.create({
      description: "d",
      llm: new MockChatModel([]),
      tools: [weatherTools],
      toolsPath: "custom/tools.json",
      cwd: dir,
      logger: createCapturingLogger(),
    });
    expect(agent.toolRegistry.records().map((r) => r.tool_name)).toEqual(["get_weather", "add"]);
    const stored = JSON.parse(await readFile(join(dir, "custom/tools.json"), "utf8"));
    expect(Object.keys(stored)).toEqual(["get_weather", "add"]);
  });

  it("reports a registration failure from ready and from invoke, without crashing", async () => {
    await mkdir(join(dir, "templates"), { recursive: true });
    await writeFile(join(dir, "templates/tools.json"), "not json");
    const llm = new MockChatModel(["never"]);
    const { agent } = agentWith(llm);
    await expect(agent.ready).rejects.toSatisfy(RegistryFileError.isInstance);
    await expect(agent.invoke("x")).rejects.toSatisfy(RegistryFileError.isInstance);
    expect(llm.calls).toHaveLength(0);
  });
});

describe("Agent authentication", () => {
  const secret = "a-shared-secret-of-enough-length-0123456789";
  const sign = (claims: Record<string, unknown>, key = secret) =>
    new SignJWT(claims).setProtectedHeader({ alg: "HS256" }).sign(new TextEncoder().encode(key));

  it("acts as the token's subject", async () => {
    const token = await sign({ sub: "alice", exp: Math.floor(Date.now() / 1000) + 600 });
    const llm = new MockChatModel(["hi alice"]);
    const { agent, logger } = agentWith(llm, { authCard: createAuthCard({ token, secret }) });
    await agent.invoke("hello", { userId: "mallory" });
    expect(logger.infos).toContain("I'am chatting with alice");
  });

  it.each([
    ["expired", () => sign({ sub: "alice", exp: Math.floor(Date.now() / 1000) - 600 })],
    [
      "signed with another secret",
      () => sign({ sub: "alice" }, "another-secret-of-enough-length-0123456789"),
    ],
    [
      "unsigned (alg: none)",
      async () => {
        const part = (value: object) => Buffer.from(JSON.stringify(value)).toString("base64url");
        return `${part({ alg: "none", typ: "JWT" })}.${part({ sub: "alice" })}.`;
      },
    ],
  ])("rejects a token that is %s before any model call", async (_, makeToken) => {
    const llm = new MockChatModel(["never"]);
    const { agent } = agentWith(llm, {
      authCard: createAuthCard({ token: await makeToken(), secret }),
    });
    await expect(agent.invoke("hello")).rejects.toSatisfy(AuthenticationError.isInstance);
    expect(llm.calls).toHaveLength(0);
  });
});

describe("Agent.stream with MockChatModel", () => {
  it("streams the scripted answer word by word and numbers the final no-tool step", async () => {
    const llm = new MockChatModel([
      { toolCalls: [mockToolCall("add", { a: 2, b: 3 })] },
      "Two plus three is five.",
    ]);
    const { agent } = agentWith(llm, { maxIterations: 1 });
    const types: string[] = [];
    const deltas: string[] = [];
    for await (const event of agent.stream("2+3?")) {
      types.push(event.type === "step-start" ? `step-start ${event.step}` : event.type);
      if (event.type === "text-delta") deltas.push(event.text);
    }
    expect(deltas).toEqual(["Two ", "plus ", "three ", "is ", "five."]);
    expect(types).toEqual([
      "step-start 1",
      "tool-call",
      "tool-result",
      "step-finish",
      "step-start 2",
      ...deltas.map(() => "text-delta"),
      "step-finish",
      "finish",
    ]);
  });

  it.each(["native", "json"] as const)(
    "streams the model's reasoning as reasoning-delta events apart from the answer (%s tool calling)",
    async (toolCalling) => {
      const llm = new MockChatModel([{ reasoning: "Hi means hello.", content: "Hello!" }]);
      const { agent } = agentWith(llm, { toolCalling });
      const events: AgentEvent[] = [];
      for await (const event of agent.stream("hi")) events.push(event);
      const texts = (type: string) =>
        events.flatMap((event) => (event.type === type && "text" in event ? [event.text] : []));
      expect(texts("reasoning-delta").join("")).toBe("Hi means hello.");
      expect(texts("text-delta").join("")).toBe("Hello!");
      const types = events.map((event) => event.type);
      expect(types.lastIndexOf("reasoning-delta")).toBeLessThan(types.indexOf("text-delta"));
    },
  );
});
