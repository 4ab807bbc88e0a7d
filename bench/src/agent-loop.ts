import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import {
  Agent,
  type ChatModel,
  type ChatResponse,
  type Logger,
  primaryFunction,
} from "@framework/core";
import { HumanMessage } from "@langchain/core/messages";
import { tool as langChainTool } from "@langchain/core/tools";
import { createReactAgent } from "@langchain/langgraph/prebuilt";
import {
  Agent as OpenAIAgent,
  type Model as OpenAIAgentsModel,
  type ModelResponse as OpenAIAgentsResponse,
  Runner as OpenAIAgentsRunner,
  Usage as OpenAIAgentsUsage,
  tool as openAiAgentsTool,
} from "@openai/agents-core";
import { tool as aiTool, generateText, stepCountIs, zodSchema } from "ai";
import { MockLanguageModelV3 } from "ai/test";
import { z } from "zod";
import { LangChainScriptedModel } from "./langchain-scripted-model.js";
import { ratioTarget } from "./langgraph-row.js";
import type { LoadGuardOptions } from "./load-guard.js";
import { measurePaired, type PairedResult, ratioEstimate } from "./paired.js";
import { type MeasuredRow, measuredRow, times } from "./report.js";
import { growthRow } from "./scale-rows.js";
import { type Repetitions, timeAsync } from "./stats.js";

/** The loop: 10 model calls, the first 9 asking for a tool, the last answering. */
const iterations = 10;
const toolTurns = iterations - 1;

const system = "You are a calculator. Use the add tool for every sum.";
const question = "Add one to each number from 0 to 8, one call at a time.";
const addParameters = z.object({ a: z.number(), b: z.number() });
const addDescription = "Adds two numbers.";

/** Settings of {@link benchAgentLoop}. */
export interface AgentLoopOptions {
  readonly repetitions: Repetitions;
  /** Tool counts of the scaling case (request building, argument validation); first is 1. */
  readonly toolCounts: readonly number[];
  readonly guard: LoadGuardOptions;
  /** Agent runs timed together in one sample, so the timer's resolution does not matter. */
  readonly invokesPerSample: number;
}

/**
 * What every scripted model does with the tools it is handed: turn them into a request body,
 * as a provider would, so a framework that hands over ready JSON Schema is not charged for
 * the work another leaves to the provider.
 */
export function serializeTools(tools: unknown): number {
  return JSON.stringify(tools ?? []).length;
}

/** Our agent's contestant: a scripted `ChatModel` with nothing in it but the script. */
function scriptedChatModel(): ChatModel {
  const usage = { inputTokens: 1, outputTokens: 1, totalTokens: 2 };
  return {
    provider: "bench",
    modelId: "scripted",
    async generate({ messages, tools }): Promise<ChatResponse> {
      serializeTools(tools);
      const done = messages.filter((message) => message.role === "tool").length;
      if (done >= toolTurns) {
        return {
          message: { role: "assistant", content: `The sum is ${done}.` },
          usage,
          finishReason: "stop",
        };
      }
      return {
        message: {
          role: "assistant",
          content: null,
          toolCalls: [
            { id: `call_${done}`, name: "add", arguments: JSON.stringify({ a: done, b: 1 }) },
          ],
        },
        usage,
        finishReason: "tool_calls",
      };
    },
  };
}

type AiSdkGenerateResult = Awaited<ReturnType<MockLanguageModelV3["doGenerate"]>>;

/** The AI SDK's contestant: its own mock model, following the same script. */
function scriptedAiSdkModel(): MockLanguageModelV3 {
  const usage: AiSdkGenerateResult["usage"] = {
    inputTokens: { total: 1, noCache: 1, cacheRead: 0, cacheWrite: 0 },
    outputTokens: { total: 1, text: 1, reasoning: 0 },
  };
  return new MockLanguageModelV3({
    doGenerate: async ({ prompt, tools }): Promise<AiSdkGenerateResult> => {
      serializeTools(tools);
      const done = prompt.filter((message) => message.role === "tool").length;
      if (done >= toolTurns) {
        return {
          content: [{ type: "text", text: `The sum is ${done}.` }],
          finishReason: { unified: "stop", raw: "stop" },
          usage,
          warnings: [],
        };
      }
      return {
        content: [
          {
            type: "tool-call",
            toolCallId: `call_${done}`,
            toolName: "add",
            input: JSON.stringify({ a: done, b: 1 }),
          },
        ],
        finishReason: { unified: "tool-calls", raw: "tool_calls" },
        usage,
        warnings: [],
      };
    },
  });
}

function expectIterations(framework: string, actual: number): void {
  if (actual !== iterations) {
    throw new Error(`${framework} ran ${actual} model calls instead of ${iterations}`);
  }
}

/** The OpenAI Agents SDK's contestant: a `Model` following the same script. */
function scriptedOpenAIAgentsModel(): OpenAIAgentsModel {
  return {
    async getResponse(request): Promise<OpenAIAgentsResponse> {
      serializeTools(request.tools);
      const input = typeof request.input === "string" ? [] : request.input;
      const done = input.filter((item) => item.type === "function_call_result").length;
      const usage = new OpenAIAgentsUsage({ requests: 1, inputTokens: 1, outputTokens: 1 });
      if (done >= toolTurns) {
        return {
          usage,
          output: [
            {
              type: "message",
              role: "assistant",
              status: "completed",
              content: [{ type: "output_text", text: `The sum is ${done}.` }],
            },
          ],
        };
      }
      return {
        usage,
        output: [
          {
            type: "function_call",
            callId: `call_${done}`,
            name: "add",
            arguments: JSON.stringify({ a: done, b: 1 }),
            status: "completed",
          },
        ],
      };
    },
    getStreamedResponse() {
      throw new Error("the benchmark never streams");
    },
  };
}

/** Tools beside `add` that the model never calls: only describing them costs. */
function extraToolParameters(index: number) {
  return z.object({ query: z.string().describe(`Query ${index}`), limit: z.number().optional() });
}

/** The contestants of the loop, each with `toolCount` tools; each returns µs per iteration. */
type Contestant = "ours" | "aiSdk" | "aiSdkRaw" | "langGraph" | "openAiAgents";

async function contestants(
  toolCount: number,
  invokesPerSample: number,
  directory: string,
): Promise<Record<Contestant, () => Promise<number>>> {
  const extras = Array.from({ length: toolCount - 1 }, (_, index) => index);
  const dropLines: Logger = { debug() {}, info() {}, warn() {}, error() {} };
  const add = primaryFunction(
    { name: "add", description: addDescription, parameters: addParameters, returns: "number" },
    ({ a, b }) => a + b,
  );
  const ours = await Agent.create({
    description: system,
    llm: scriptedChatModel(),
    tools: [
      add,
      ...extras.map((index) =>
        primaryFunction(
          {
            name: `lookup_${index}`,
            description: `Looks up record set ${index}.`,
            parameters: extraToolParameters(index),
            returns: "string",
          },
          ({ query }) => query,
        ),
      ),
    ],
    cwd: directory,
    toolsPath: `tools-${toolCount}.json`,
    resetTools: true,
    logger: dropLines,
  });

  const aiSdkModel = scriptedAiSdkModel();
  // As the AI SDK's docs show: zodSchema() around the schema. The raw case passes the zod
  // object itself, which the SDK converts on every call: kept, labelled, for comparison.
  const aiSdkTools = (wrap: boolean) =>
    Object.fromEntries([
      [
        "add",
        aiTool({
          description: addDescription,
          inputSchema: wrap ? zodSchema(addParameters) : addParameters,
          execute: async ({ a, b }: z.output<typeof addParameters>) => a + b,
        }),
      ],
      ...extras.map((index) => [
        `lookup_${index}`,
        aiTool({
          description: `Looks up record set ${index}.`,
          inputSchema: wrap ? zodSchema(extraToolParameters(index)) : extraToolParameters(index),
          execute: async ({ query }: { query: string }) => query,
        }),
      ]),
    ]);
  const wrapped = aiSdkTools(true);
  const raw = aiSdkTools(false);

  const langGraphAgent = createReactAgent({
    llm: new LangChainScriptedModel(toolTurns),
    tools: [
      langChainTool(({ a, b }: z.output<typeof addParameters>) => a + b, {
        name: "add",
        description: addDescription,
        schema: addParameters,
      }),
      ...extras.map((index) =>
        langChainTool(({ query }: { query: string }) => query, {
          name: `lookup_${index}`,
          description: `Looks up record set ${index}.`,
          schema: extraToolParameters(index),
        }),
      ),
    ],
    prompt: system,
  });

  const openAiAgent = new OpenAIAgent({
    name: "calculator",
    instructions: system,
    model: scriptedOpenAIAgentsModel(),
    tools: [
      openAiAgentsTool({
        name: "add",
        description: addDescription,
        parameters: addParameters,
        execute: ({ a, b }) => a + b,
      }),
      ...extras.map((index) =>
        openAiAgentsTool({
          name: `lookup_${index}`,
          description: `Looks up record set ${index}.`,
          parameters: z.object({
            query: z.string().describe(`Query ${index}`),
            limit: z.number().nullable(),
          }),
          execute: ({ query }) => query,
        }),
      ),
    ],
  });
  const openAiRunner = new OpenAIAgentsRunner({ tracingDisabled: true });

  const perIteration = (run: () => Promise<void>) => async () => {
    const elapsed = await timeAsync(async () => {
      for (let index = 0; index < invokesPerSample; index++) await run();
    });
    return (elapsed * 1000) / (invokesPerSample * iterations);
  };
  const aiSdkRun = (tools: typeof wrapped, label: string) =>
    perIteration(async () => {
      const result = await generateText({
        model: aiSdkModel,
        system,
        prompt: question,
        tools,
        stopWhen: stepCountIs(iterations),
      });
      // The mock keeps every call's options; without this the heap grows across samples.
      aiSdkModel.doGenerateCalls.length = 0;
      expectIterations(label, result.steps.length);
    });
  return {
    ours: perIteration(async () => {
      const result = await ours.invoke(question);
      expectIterations("@framework/core Agent", result.iterations);
    }),
    aiSdk: aiSdkRun(wrapped, "AI SDK generateText (zodSchema)"),
    aiSdkRaw: aiSdkRun(raw, "AI SDK generateText (raw zod)"),
    langGraph: perIteration(async () => {
      const result = await langGraphAgent.invoke({ messages: [new HumanMessage(question)] });
      const modelCalls = result.messages.filter((message) => message.type === "ai").length;
      expectIterations("LangGraph.js createReactAgent", modelCalls);
    }),
    openAiAgents: perIteration(async () => {
      const result = await openAiRunner.run(openAiAgent, question, { maxTurns: iterations + 1 });
      expectIterations("OpenAI Agents JS run", result.rawResponses.length);
    }),
  };
}

const peerLabels: Record<Exclude<Contestant, "ours">, string> = {
  aiSdk: "AI SDK generateText, zodSchema() as its docs show",
  aiSdkRaw: "AI SDK generateText, raw zod schema (not what its docs show)",
  langGraph: "LangGraph.js createReactAgent",
  openAiAgents: "OpenAI Agents JS Runner.run",
};

const peerTargets: Record<Exclude<Contestant, "ours">, { atLeast: number; text: string }> = {
  aiSdk: { atLeast: 1, text: "≤ AI SDK (ratio ≥ 1)" },
  aiSdkRaw: { atLeast: 1, text: "≤ AI SDK (ratio ≥ 1)" },
  langGraph: { atLeast: 3, text: "≥ 3× less than LangGraph (ratio ≥ 3)" },
  openAiAgents: { atLeast: 1, text: "≤ OpenAI Agents (ratio ≥ 1)" },
};

function pairedRow(
  id: string,
  title: string,
  peer: Exclude<Contestant, "ours">,
  result: PairedResult,
  details: Record<string, unknown>,
): MeasuredRow {
  const quantity = (value: number) => ({ value, unit: "µs/iter" });
  return measuredRow({
    id,
    title,
    ours: quantity(result.ours.median),
    ...(peer === "langGraph"
      ? { langGraph: quantity(result.peer.median) }
      : peer === "openAiAgents"
        ? { reference: { ...quantity(result.peer.median), label: "OpenAI Agents JS" } }
        : { aiSdk: quantity(result.peer.median) }),
    ratio: `${peerLabels[peer]} ÷ ours ${times(result.ratio)}`,
    target: ratioTarget(peerTargets[peer]),
    metrics: { ratio: ratioEstimate(result) },
    load: result.load,
    memory: result.memory,
    details: { ...details, ...result },
  });
}

/**
 * Item 1: the overhead of a 10-iteration tool loop, in microseconds per iteration, with a
 * zero-latency scripted model and a trivial tool, so everything measured is the framework's
 * own work, ours paired against each peer in turn. Then item 8: the same loop with more tools
 * registered (request building and argument validation), ours against the AI SDK with
 * zodSchema() at each count, and the growth of ours' cost with the count.
 */
export async function benchAgentLoop({
  repetitions,
  invokesPerSample,
  toolCounts,
  guard,
}: AgentLoopOptions): Promise<MeasuredRow[]> {
  const directory = await mkdtemp(join(tmpdir(), "framework-bench-agent-"));
  try {
    const rows: MeasuredRow[] = [];
    const one = await contestants(1, invokesPerSample, directory);
    const options = { ...repetitions, better: "lower" as const, guard };
    const peers: [string, Exclude<Contestant, "ours">][] = [
      ["1a", "aiSdk"],
      ["1b", "aiSdkRaw"],
      ["1c", "langGraph"],
      ["1d", "openAiAgents"],
    ];
    for (const [id, peer] of peers) {
      const result = await measurePaired(one.ours, one[peer], options);
      rows.push(
        pairedRow(id, `Agent loop, 10 iterations, vs ${peerLabels[peer]}`, peer, result, {
          iterations,
          invokesPerSample,
        }),
      );
    }

    const byCount: PairedResult[] = [];
    for (const count of toolCounts) {
      const loop = count === 1 ? one : await contestants(count, invokesPerSample, directory);
      const result = await measurePaired(loop.ours, loop.aiSdk, options);
      byCount.push(result);
      rows.push(
        pairedRow(
          `8-${count}`,
          `Agent loop with ${count} tools vs AI SDK (zodSchema)`,
          "aiSdk",
          result,
          {
            toolCount: count,
          },
        ),
      );
    }
    const first = toolCounts[0]!;
    const last = toolCounts[toolCounts.length - 1]!;
    if (last > first) {
      rows.push(
        growthRow({
          id: "8-growth",
          title: `Agent loop cost growth, ${first} → ${last} tools`,
          span: [first, last],
          results: [byCount[0]!, byCount[byCount.length - 1]!],
          peer: { column: "aiSdk", label: "AI SDK" },
          targetText: "exponent ≤ 1.2 (at most linear in tools)",
        }),
      );
    }
    return rows;
  } finally {
    await rm(directory, { recursive: true, force: true });
  }
}
