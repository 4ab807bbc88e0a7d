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
import { tool as aiTool, generateText, stepCountIs } from "ai";
import { MockLanguageModelV3 } from "ai/test";
import { z } from "zod";
import { LangChainScriptedModel } from "./langchain-scripted-model.js";
import { type BenchRow, times } from "./report.js";
import { type Repetitions, sampleInterleaved, timeAsync } from "./stats.js";

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
  /** Agent runs timed together in one sample, so the timer's resolution does not matter. */
  readonly invokesPerSample: number;
}

/** Our agent's contestant: a scripted `ChatModel` with nothing in it but the script. */
function scriptedChatModel(): ChatModel {
  const usage = { inputTokens: 1, outputTokens: 1, totalTokens: 2 };
  return {
    provider: "bench",
    modelId: "scripted",
    async generate({ messages }): Promise<ChatResponse> {
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
    doGenerate: async ({ prompt }): Promise<AiSdkGenerateResult> => {
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

/**
 * Item 1: the overhead of a 10-iteration tool loop, in microseconds per iteration, with a
 * zero-latency scripted model and a trivial tool, so everything measured is the framework's
 * own work. Ours runs with a logger that drops lines: formatting and secret redaction still
 * happen, as in an application, but no terminal I/O is timed.
 */
export async function benchAgentLoop({
  repetitions,
  invokesPerSample,
}: AgentLoopOptions): Promise<BenchRow> {
  const directory = await mkdtemp(join(tmpdir(), "framework-bench-agent-"));
  try {
    const dropLines: Logger = { debug() {}, info() {}, warn() {}, error() {} };
    const add = primaryFunction(
      { name: "add", description: addDescription, parameters: addParameters, returns: "number" },
      ({ a, b }) => a + b,
    );
    const ours = await Agent.create({
      description: system,
      llm: scriptedChatModel(),
      tools: [add],
      cwd: directory,
      toolsPath: "tools.json",
      isResetTools: true,
      logger: dropLines,
    });

    const aiSdkModel = scriptedAiSdkModel();
    const aiSdkTools = {
      add: aiTool({
        description: addDescription,
        inputSchema: addParameters,
        execute: async ({ a, b }) => a + b,
      }),
    };

    const langGraphAgent = createReactAgent({
      llm: new LangChainScriptedModel(toolTurns),
      tools: [
        langChainTool(({ a, b }: z.output<typeof addParameters>) => a + b, {
          name: "add",
          description: addDescription,
          schema: addParameters,
        }),
      ],
      prompt: system,
    });

    const perIteration = (run: () => Promise<void>) => async () => {
      const elapsed = await timeAsync(async () => {
        for (let index = 0; index < invokesPerSample; index++) await run();
      });
      return (elapsed * 1000) / (invokesPerSample * iterations);
    };

    const results = await sampleInterleaved(
      {
        ours: perIteration(async () => {
          const result = await ours.invoke(question);
          expectIterations("@framework/core Agent", result.iterations);
        }),
        aiSdk: perIteration(async () => {
          const result = await generateText({
            model: aiSdkModel,
            system,
            prompt: question,
            tools: aiSdkTools,
            stopWhen: stepCountIs(iterations),
          });
          // The mock keeps every call's options; without this the heap grows across samples.
          aiSdkModel.doGenerateCalls.length = 0;
          expectIterations("AI SDK generateText", result.steps.length);
        }),
        langGraph: perIteration(async () => {
          const result = await langGraphAgent.invoke({ messages: [new HumanMessage(question)] });
          const modelCalls = result.messages.filter((message) => message.type === "ai").length;
          expectIterations("LangGraph.js createReactAgent", modelCalls);
        }),
      },
      repetitions,
    );

    const ourCost = results.ours.median;
    const aiSdkRatio = results.aiSdk.median / ourCost;
    const langGraphRatio = results.langGraph.median / ourCost;
    return {
      id: "1",
      title: "Agent loop overhead, 10-iteration tool loop",
      ours: { value: ourCost, unit: "µs/iter" },
      aiSdk: { value: results.aiSdk.median, unit: "µs/iter" },
      langGraph: { value: results.langGraph.median, unit: "µs/iter" },
      ratio: `AI SDK ÷ ours ${times(aiSdkRatio)}; LangGraph ÷ ours ${times(langGraphRatio)}`,
      target: "≤ AI SDK; ≥ 3× less than LangGraph",
      verdict: aiSdkRatio >= 1 && langGraphRatio >= 3 ? "met" : "missed",
      details: { iterations, toolCalls: toolTurns, invokesPerSample, ...results },
    };
  } finally {
    await rm(directory, { recursive: true, force: true });
  }
}
