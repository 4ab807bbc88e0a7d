import { randomUUID } from "node:crypto";
import { AbortedError } from "../error/aborted-error.js";
import type { Logger } from "../log/logger.js";
import {
  addUsage,
  type ChatMessage,
  type ChatModel,
  type ChatResponse,
  emptyUsage,
  type ModelFinishReason,
  type ToolDefinition,
  type Usage,
} from "../model/chat-model.js";
import type { ToolRegistry } from "../registry/tool-registry.js";
import { parseJsonToolCalls } from "../tool/json-tool-call-parser.js";
import type { PendingToolCall, ToolCall } from "../tool/tool-call.js";
import { renderToolOutput, type ToolOutputLimits } from "../tool/tool-output.js";
import type { AgentFinishReason, AgentResult, AgentToolCall } from "./agent-result.js";
import { finalAnswerRequest, jsonModeToolResults, type ToolCallingMode } from "./prompt.js";

/** Everything one run of the loop needs. */
export interface ToolLoopInput {
  model: ChatModel;
  registry: ToolRegistry;
  /** The conversation so far: system prompt and user query. Extended in place. */
  messages: ChatMessage[];
  tools: ToolDefinition[];
  toolCalling: ToolCallingMode;
  maxIterations: number;
  outputLimits: ToolOutputLimits;
  logger: Logger;
  signal: AbortSignal;
}

/**
 * The agent tool loop: ask the model; run every tool call of its reply concurrently and send
 * the results back in call order; stop when a reply asks for no tool. When the iteration
 * limit is used up, one last call without tools asks for the final answer, so partial work
 * is kept rather than thrown away.
 */
export async function runToolLoop(input: ToolLoopInput): Promise<AgentResult> {
  const { messages, logger, signal, maxIterations } = input;
  const toolCalls: AgentToolCall[] = [];
  let usage: Usage = emptyUsage();
  const finish = (content: string, iterations: number, finishReason: AgentFinishReason) => ({
    content,
    iterations,
    toolCalls,
    usage,
    finishReason,
    messages,
  });

  for (let iteration = 1; iteration <= maxIterations; iteration++) {
    AbortedError.throwIfAborted(signal, "agent run");
    logger.info(`Tool calling iteration ${iteration}/${maxIterations}`);
    const response = await ask(input, { tools: input.toolCalling === "native" ? input.tools : [] });
    usage = addUsage(usage, response.usage);
    const pending = pendingCalls(input, response);
    if (pending.length === 0) {
      messages.push({ role: "assistant", content: response.message.content ?? "" });
      logger.info(`No more tool calls needed. Completed in ${iteration} iterations.`);
      return finish(
        response.message.content ?? "",
        iteration,
        agentFinishReason(response.finishReason),
      );
    }
    messages.push(
      input.toolCalling === "native"
        ? response.message
        : { role: "assistant", content: response.message.content ?? "" },
    );
    const executed = await Promise.all(pending.map((call) => executeCall(input, call, iteration)));
    toolCalls.push(...executed);
    AbortedError.throwIfAborted(signal, "agent run");
    if (input.toolCalling === "native") {
      for (const call of executed) {
        messages.push({
          role: "tool",
          toolCallId: call.id,
          name: call.toolName,
          content: call.output,
        });
      }
    } else {
      messages.push({ role: "user", content: jsonModeToolResults(executed) });
    }
  }

  messages.push({ role: "user", content: finalAnswerRequest });
  const final = await ask(input, {
    tools: input.toolCalling === "native" ? input.tools : [],
    toolChoice: "none",
  });
  usage = addUsage(usage, final.usage);
  const content = final.message.content ?? "";
  messages.push({ role: "assistant", content });
  return finish(content, maxIterations, "max_iterations");
}

async function ask(
  input: ToolLoopInput,
  { tools, toolChoice }: { tools: ToolDefinition[]; toolChoice?: "none" },
): Promise<ChatResponse> {
  return input.model.generate({
    messages: [...input.messages],
    ...(tools.length > 0 ? { tools, toolChoice: toolChoice ?? "auto" } : {}),
    signal: input.signal,
  });
}

function pendingCalls(input: ToolLoopInput, response: ChatResponse): PendingToolCall[] {
  if (input.toolCalling === "json") {
    return parseJsonToolCalls(response.message.content ?? "").map((call) => ({
      id: `call_${randomUUID()}`,
      call,
    }));
  }
  return (response.message.toolCalls ?? []).map((modelCall) => {
    const record = input.registry.find(modelCall.name)?.record;
    const call: ToolCall = {
      tool_name: modelCall.name,
      ...(record ? { tool_type: record.tool_type, module_path: record.module_path } : {}),
      arguments: modelCall.arguments,
    };
    return { id: modelCall.id, call };
  });
}

async function executeCall(
  input: ToolLoopInput,
  { id, call }: PendingToolCall,
  iteration: number,
): Promise<AgentToolCall> {
  input.logger.info(`Executing tool call: ${JSON.stringify(forLog(call))}`);
  const execution = await input.registry.execute(call, {
    signal: input.signal,
    logger: input.logger,
    toolCallId: id,
  });
  if (!execution.ok) {
    input.logger.warn(`Tool call ${call.tool_name} failed: ${execution.error.message}`);
    return {
      id,
      iteration,
      toolName: call.tool_name,
      arguments: execution.arguments,
      ok: false,
      error: execution.error,
      output: `Error: ${execution.error.message}`,
    };
  }
  const spec = input.registry.find(call.tool_name)?.spec;
  const output = spec?.toModelOutput
    ? renderToolOutput(spec.toModelOutput(execution.result), input.outputLimits)
    : renderToolOutput(execution.result, input.outputLimits);
  return {
    id,
    iteration,
    toolName: call.tool_name,
    arguments: execution.arguments,
    ok: true,
    result: execution.result,
    output,
  };
}

/** Native calls carry their arguments as JSON text; log them as the object they encode. */
function forLog(call: ToolCall): ToolCall {
  if (typeof call.arguments !== "string") return call;
  try {
    return { ...call, arguments: JSON.parse(call.arguments) };
  } catch {
    return call;
  }
}

function agentFinishReason(reason: ModelFinishReason): AgentFinishReason {
  return reason === "tool_calls" ? "stop" : reason;
}
