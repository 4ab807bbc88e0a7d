import { randomUUID } from "node:crypto";
import { AbortedError } from "../error/aborted-error.js";
import { errorMessage } from "../error/error-message.js";
import { TooManyToolCallsError } from "../error/too-many-tool-calls-error.js";
import { jsonForLog, unloggableArguments } from "../log/json-for-log.js";
import type { Logger } from "../log/logger.js";
import {
  addUsage,
  type ChatMessage,
  type ChatModel,
  type ChatResponse,
  emptyUsage,
  type ModelFinishReason,
  type ResponseFormat,
  type ToolDefinition,
  type Usage,
} from "../model/chat-model.js";
import { executeTool, type ToolCatalogue } from "../tool/execute-tool.js";
import { parseJsonToolCalls } from "../tool/json-tool-call-parser.js";
import type { PendingToolCall, ToolCall } from "../tool/tool-call.js";
import { renderToolOutput, type ToolOutputLimits } from "../tool/tool-output.js";
import type { AgentEvent, AgentEventHandler } from "./agent-event.js";
import type { AgentFinishReason, AgentResult, AgentToolCall } from "./agent-result.js";
import { modelReply } from "./model-reply.js";
import { finalAnswerRequest, jsonModeToolResults, type ToolCallingMode } from "./prompt.js";
import { type ApproveToolCall, declinedCall } from "./tool-approval.js";

/** Everything one run of the loop needs. */
export interface ToolLoopInput {
  model: ChatModel;
  /** The agent's tools; a call selects among them and nothing else. */
  tools: ToolCatalogue;
  /** What the model is offered of `tools`. */
  definitions: ToolDefinition[];
  /** The conversation so far: system prompt and user query. Extended in place. */
  messages: ChatMessage[];
  toolCalling: ToolCallingMode;
  maxIterations: number;
  /** Calls of one reply beyond this get an error result instead of running. */
  maxToolCallsPerReply: number;
  /** Time limit of one tool call unless the tool sets its own. */
  toolTimeoutMs: number;
  outputLimits: ToolOutputLimits;
  logger: Logger;
  signal: AbortSignal;
  /** Receives the run's events; with it, a model that streams is streamed. */
  onEvent?: AgentEventHandler;
  /** Decides calls of tools that need approval; without it they are declined. */
  approveToolCall?: ApproveToolCall;
  /** The JSON answer format, for models that enforce it (structured output). */
  responseFormat?: ResponseFormat;
}

/**
 * The agent tool loop: ask the model; run every tool call of its reply concurrently and send
 * the results back in call order; stop when a reply asks for no tool. When the iteration
 * limit is used up, one last call without tools asks for the final answer, so partial work
 * is kept rather than thrown away.
 */
export async function runToolLoop(input: ToolLoopInput): Promise<AgentResult> {
  const { messages, logger, signal, maxIterations, onEvent } = input;
  const toolCalls: AgentToolCall[] = [];
  let usage: Usage = emptyUsage();
  const finish = (
    { message, reasoning }: ChatResponse,
    iterations: number,
    finishReason: AgentFinishReason,
  ): AgentResult => ({
    content: message.content ?? "",
    ...(reasoning !== undefined ? { reasoning } : {}),
    iterations,
    toolCalls,
    usage,
    finishReason,
    messages,
  });

  // In JSON mode the tools are listed in the system prompt, not offered natively.
  const offered = input.toolCalling === "native" ? input.definitions : [];

  for (let iteration = 1; iteration <= maxIterations; iteration++) {
    AbortedError.throwIfAborted(signal, "agent run");
    logger.info(`Tool calling iteration ${iteration}/${maxIterations}`);
    onEvent?.({ type: "step-start", step: iteration });
    const response = await ask(input, { tools: offered });
    usage = addUsage(usage, response.usage);
    const pending = pendingCalls(input, response);
    if (pending.length === 0) {
      messages.push({ role: "assistant", content: response.message.content ?? "" });
      logger.info(`No more tool calls needed. Completed in ${iteration} iterations.`);
      onEvent?.(stepFinish(iteration, response));
      return finish(response, iteration, agentFinishReason(response.finishReason));
    }
    messages.push(
      input.toolCalling === "native"
        ? response.message
        : { role: "assistant", content: response.message.content ?? "" },
    );
    const executed = await Promise.all(
      pending.map(async (call, index) => {
        onEvent?.({
          type: "tool-call",
          toolCallId: call.id,
          toolName: call.call.tool_name,
          arguments: call.call.arguments,
        });
        const startedAt = performance.now();
        const done =
          index < input.maxToolCallsPerReply
            ? await executeCall(input, call, iteration)
            : refuseCall(input, call, iteration, pending.length);
        onEvent?.({
          type: "tool-result",
          toolCallId: done.id,
          toolName: done.toolName,
          output: done.output,
          isError: !done.ok,
          durationMs: performance.now() - startedAt,
        });
        return done;
      }),
    );
    toolCalls.push(...executed);
    AbortedError.throwIfAborted(signal, "agent run");
    onEvent?.(stepFinish(iteration, response));
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
  onEvent?.({ type: "step-start", step: maxIterations + 1 });
  const final = await ask(input, { tools: offered, toolChoice: "none" });
  onEvent?.(stepFinish(maxIterations + 1, final));
  usage = addUsage(usage, final.usage);
  messages.push({ role: "assistant", content: final.message.content ?? "" });
  return finish(final, maxIterations, "max_iterations");
}

async function ask(
  input: ToolLoopInput,
  { tools, toolChoice }: { tools: ToolDefinition[]; toolChoice?: "none" },
): Promise<ChatResponse> {
  return modelReply(
    input.model,
    {
      messages: [...input.messages],
      ...(tools.length > 0 ? { tools, toolChoice: toolChoice ?? "auto" } : {}),
      ...(input.responseFormat ? { responseFormat: input.responseFormat } : {}),
      signal: input.signal,
    },
    input.toolCalling,
    input.onEvent,
  );
}

/** Ends a step: its model call and, when it asked for any, its tool calls. */
function stepFinish(step: number, { usage, finishReason }: ChatResponse): AgentEvent {
  return { type: "step-finish", step, usage, finishReason };
}

function pendingCalls(input: ToolLoopInput, response: ChatResponse): PendingToolCall[] {
  if (input.toolCalling === "json") {
    return parseJsonToolCalls(response.message.content ?? "").map((call) => ({
      id: `call_${randomUUID()}`,
      call,
    }));
  }
  return (response.message.toolCalls ?? []).map((modelCall) => {
    const record = input.tools.find(modelCall.name)?.record;
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
  const declined = await declinedCall(input.tools, input.approveToolCall, { id, call });
  if (declined) {
    // A person's "no" is the approval working, not a fault for an operator: info, not warn.
    input.logger.info(`Tool call ${call.tool_name} not run: ${declined.message}`);
    return failedCall(id, iteration, call.tool_name, call.arguments, declined);
  }
  // A model can send megabytes of arguments: the logger keeps the start and says how much more.
  input.logger.info(`Executing tool call: ${describeCall(call)}`);
  const execution = await executeTool(call, {
    tools: input.tools,
    context: { signal: input.signal, logger: input.logger, toolCallId: id },
    timeoutMs: input.toolTimeoutMs,
    logger: input.logger,
  });
  if (!execution.ok) {
    input.logger.warn(`Tool call ${call.tool_name} failed: ${execution.error.message}`);
    return failedCall(id, iteration, call.tool_name, execution.arguments, execution.error);
  }
  const output = modelOutput(input, call.tool_name, execution.result);
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

/**
 * Answers a call past the per-reply limit without running it. Every call still gets a result,
 * because providers reject a conversation where a tool call id has no answer.
 */
function refuseCall(
  input: ToolLoopInput,
  { id, call }: PendingToolCall,
  iteration: number,
  requested: number,
): AgentToolCall {
  const error = new TooManyToolCallsError({ requested, limit: input.maxToolCallsPerReply });
  input.logger.warn(`Tool call ${call.tool_name} not run: ${error.message}`);
  return failedCall(id, iteration, call.tool_name, call.arguments, error);
}

/** A call that did not produce a result; the model is sent `Error: <message>`. */
function failedCall(
  id: string,
  iteration: number,
  toolName: string,
  args: unknown,
  error: Error,
): AgentToolCall {
  return {
    id,
    iteration,
    toolName,
    arguments: args,
    ok: false,
    error,
    output: `Error: ${error.message}`,
  };
}

/**
 * The text the model sees for a result: the tool's own `toModelOutput`, or the generic
 * rendering when it has none or it throws (the tool did its work; only its summary failed).
 */
function modelOutput(input: ToolLoopInput, toolName: string, result: unknown): string {
  const spec = input.tools.find(toolName)?.spec;
  if (spec?.toModelOutput) {
    try {
      return renderToolOutput(spec.toModelOutput(result), input.outputLimits);
    } catch (error) {
      input.logger.warn(
        `toModelOutput of tool ${toolName} failed, sending its result as JSON: ${errorMessage(error)}`,
      );
    }
  }
  return renderToolOutput(result, input.outputLimits);
}

/**
 * The call as JSON for the log. Native calls carry their arguments as JSON text, logged as the
 * object they encode; arguments nested too deeply to serialise are logged as sent.
 */
function describeCall(call: ToolCall): string {
  // Serialised only when needed: native arguments can be megabytes, and this runs per call.
  const asSent = () =>
    jsonForLog(call, () => JSON.stringify({ ...call, arguments: unloggableArguments }));
  if (typeof call.arguments !== "string") return asSent();
  let decoded: unknown;
  try {
    decoded = JSON.parse(call.arguments);
  } catch {
    return asSent();
  }
  return jsonForLog({ ...call, arguments: decoded }, asSent);
}

function agentFinishReason(reason: ModelFinishReason): AgentFinishReason {
  return reason === "tool_calls" ? "stop" : reason;
}
