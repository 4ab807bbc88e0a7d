import {
  type Attributes,
  type Context,
  context,
  createContextKey,
  type Span,
  SpanKind,
  type Tracer,
  trace,
} from "@opentelemetry/api";
import { jsonForLog } from "../log/json-for-log.js";
import { redactSecrets } from "../log/redact.js";
import type {
  ChatMessage,
  ChatModel,
  ChatRequest,
  ChatResponse,
  ChatStreamPart,
  ModelFinishReason,
  Usage,
} from "../model/chat-model.js";
import { GenAiAttribute, type GenAiMessage, toGenAiMessages } from "./gen-ai-attributes.js";
import { recordSpanError } from "./span-error.js";
import { MAX_TRACED_CONTENT_LENGTH, type TracingOptions } from "./tracing-options.js";

/** The instrumentation scope of every span this package starts. */
export const CORE_TRACER_NAME = "@framework/core";

/** What the spans of one agent run share; carried on the OpenTelemetry context. */
interface RunTracing {
  tracer: Tracer;
  recordContent: boolean;
}

const runTracingKey = createContextKey("@framework/core agent run tracing");

/** The tracing of the agent run this call belongs to; outside a run, content is never kept. */
function runTracing(active: Context = context.active()): RunTracing {
  return (
    (active.getValue(runTracingKey) as RunTracing | undefined) ?? {
      tracer: trace.getTracer(CORE_TRACER_NAME),
      recordContent: false,
    }
  );
}

/** Runs `work` as the active span `name`, ending it however `work` settles. */
function inSpan<T>(
  tracer: Tracer,
  name: string,
  options: { kind: SpanKind; attributes: Attributes },
  parent: Context,
  work: (span: Span) => Promise<T>,
): Promise<T> {
  return tracer.startActiveSpan(name, options, parent, async (span) => {
    try {
      return await work(span);
    } catch (error) {
      recordSpanError(span, error);
      throw error;
    } finally {
      span.end();
    }
  });
}

/** Content as a span attribute: redacted first (so a cut cannot split a secret), then cut. */
function tracedContent(text: string): string {
  const redacted = redactSecrets(text);
  if (redacted.length <= MAX_TRACED_CONTENT_LENGTH) return redacted;
  const cut = redacted.length - MAX_TRACED_CONTENT_LENGTH;
  return `${redacted.slice(0, MAX_TRACED_CONTENT_LENGTH)}… [${cut} more characters]`;
}

function messagesContent(messages: GenAiMessage[]): string {
  return tracedContent(jsonForLog(messages, "[messages not serialisable]"));
}

function usageAttributes(usage: Usage, finishReason: string): Attributes {
  return {
    [GenAiAttribute.inputTokens]: usage.inputTokens,
    [GenAiAttribute.outputTokens]: usage.outputTokens,
    [GenAiAttribute.finishReasons]: [finishReason],
  };
}

function modelAttributes(model: ChatModel): Attributes {
  return {
    [GenAiAttribute.providerName]: model.provider,
    [GenAiAttribute.system]: model.provider,
    [GenAiAttribute.requestModel]: model.modelId,
  };
}

/** What an agent run's span reads from the run's result. */
export interface TracedRunResult {
  readonly content: string;
  readonly usage: Usage;
  readonly finishReason: string;
}

/**
 * Runs one agent `invoke` inside an `invoke_agent` span. Its model calls and tool calls
 * become child spans through the active OpenTelemetry context, so a context manager must be
 * registered (the Node SDK registers one) for the tree to be joined.
 */
export function traceAgentInvoke<T extends TracedRunResult>(
  agent: { llm: ChatModel; tracing: TracingOptions | undefined },
  input: string | readonly ChatMessage[],
  run: () => Promise<T>,
): Promise<T> {
  const { tracing, llm } = agent;
  const tracer = (tracing?.tracerProvider ?? trace).getTracer(CORE_TRACER_NAME);
  const name = tracing?.agentName;
  const attributes: Attributes = {
    [GenAiAttribute.operationName]: "invoke_agent",
    ...modelAttributes(llm),
    ...(name === undefined ? {} : { [GenAiAttribute.agentName]: name }),
  };
  const spanName = name === undefined ? "invoke_agent" : `invoke_agent ${name}`;
  const options = { kind: SpanKind.INTERNAL, attributes };
  return inSpan(tracer, spanName, options, context.active(), async (span) => {
    // Content is costly to build: skipped when no SDK (or the sampler) keeps the span.
    const recordContent = (tracing?.recordContent ?? false) && span.isRecording();
    const runContext = context.active().setValue(runTracingKey, { tracer, recordContent });
    if (recordContent) {
      span.setAttribute(
        GenAiAttribute.inputMessages,
        messagesContent(
          toGenAiMessages(typeof input === "string" ? [{ role: "user", content: input }] : input),
        ),
      );
    }
    const result = await context.with(runContext, run);
    span.setAttributes(usageAttributes(result.usage, result.finishReason));
    if (recordContent) {
      const answer = toGenAiMessages([{ role: "assistant", content: result.content }]);
      span.setAttribute(GenAiAttribute.outputMessages, messagesContent(answer));
    }
    return result;
  });
}

function chatSpan(model: ChatModel, request: ChatRequest) {
  const attributes: Attributes = {
    [GenAiAttribute.operationName]: "chat",
    ...modelAttributes(model),
    ...(request.temperature === undefined
      ? {}
      : { [GenAiAttribute.requestTemperature]: request.temperature }),
    ...(request.maxOutputTokens === undefined
      ? {}
      : { [GenAiAttribute.requestMaxTokens]: request.maxOutputTokens }),
  };
  return { name: `chat ${model.modelId}`, options: { kind: SpanKind.CLIENT, attributes } };
}

function recordChatEnd(
  span: Span,
  recordContent: boolean,
  reply: { content: string | null; toolCalls?: ChatResponse["message"]["toolCalls"] },
  usage: Usage,
  finishReason: ModelFinishReason,
): void {
  span.setAttributes(usageAttributes(usage, finishReason));
  if (!recordContent) return;
  const [output] = toGenAiMessages([{ role: "assistant", ...reply }]);
  span.setAttribute(
    GenAiAttribute.outputMessages,
    messagesContent([{ ...output!, finish_reason: finishReason }]),
  );
}

/**
 * `model` with every call traced as a `chat` span (GenAI conventions: model, provider,
 * token usage, finish reasons; messages only when the run records content).
 */
export function tracedChatModel(model: ChatModel): ChatModel {
  const stream = model.stream?.bind(model);
  return {
    provider: model.provider,
    modelId: model.modelId,
    generate: (request) => {
      const { tracer, recordContent } = runTracing();
      const { name, options } = chatSpan(model, request);
      return inSpan(tracer, name, options, context.active(), async (span) => {
        if (recordContent) {
          span.setAttribute(
            GenAiAttribute.inputMessages,
            messagesContent(toGenAiMessages(request.messages)),
          );
        }
        const response = await model.generate(request);
        recordChatEnd(span, recordContent, response.message, response.usage, response.finishReason);
        return response;
      });
    },
    ...(stream ? { stream: (request: ChatRequest) => tracedStream(model, request, stream) } : {}),
  };
}

async function* tracedStream(
  model: ChatModel,
  request: ChatRequest,
  stream: (request: ChatRequest) => AsyncIterable<ChatStreamPart>,
): AsyncGenerator<ChatStreamPart> {
  const active = context.active();
  const { tracer, recordContent } = runTracing(active);
  const { name, options } = chatSpan(model, request);
  const span = tracer.startSpan(name, options, active);
  if (recordContent) {
    span.setAttribute(
      GenAiAttribute.inputMessages,
      messagesContent(toGenAiMessages(request.messages)),
    );
  }
  let text = "";
  const toolCalls: NonNullable<ChatResponse["message"]["toolCalls"]> = [];
  try {
    for await (const part of context.with(trace.setSpan(active, span), () => stream(request))) {
      if (part.type === "text-delta" && recordContent) text += part.text;
      if (part.type === "tool-call") toolCalls.push(part.toolCall);
      if (part.type === "finish") {
        const reply = { content: text, ...(toolCalls.length > 0 ? { toolCalls } : {}) };
        recordChatEnd(span, recordContent, reply, part.usage, part.finishReason);
      }
      yield part;
    }
  } catch (error) {
    recordSpanError(span, error);
    throw error;
  } finally {
    span.end();
  }
}

/** What a tool call's span reads from its outcome: failures are values, not throws. */
export type TracedToolOutcome =
  | { readonly ok: true; readonly result: unknown }
  | { readonly ok: false; readonly error: unknown };

/**
 * Runs one tool call inside an `execute_tool` span. A tool call returns its failure rather
 * than throwing it, so a failed outcome is marked on the span from its value.
 */
export function traceToolExecution<T extends TracedToolOutcome>(
  call: { toolName: string; toolCallId: string | undefined; arguments: unknown },
  execute: () => Promise<T>,
): Promise<T> {
  const { tracer, recordContent } = runTracing();
  const attributes: Attributes = {
    [GenAiAttribute.operationName]: "execute_tool",
    [GenAiAttribute.toolName]: call.toolName,
    [GenAiAttribute.toolType]: "function",
    ...(call.toolCallId === undefined ? {} : { [GenAiAttribute.toolCallId]: call.toolCallId }),
  };
  const spanName = `execute_tool ${call.toolName}`;
  const options = { kind: SpanKind.INTERNAL, attributes };
  return inSpan(tracer, spanName, options, context.active(), async (span) => {
    if (recordContent) {
      const args =
        typeof call.arguments === "string"
          ? call.arguments
          : jsonForLog(call.arguments, "[arguments not serialisable]");
      span.setAttribute(GenAiAttribute.toolArguments, tracedContent(args));
    }
    const execution = await execute();
    if (!execution.ok) recordSpanError(span, execution.error);
    else if (recordContent) {
      const result = jsonForLog(execution.result, "[result not serialisable]");
      span.setAttribute(GenAiAttribute.toolResult, tracedContent(result));
    }
    return execution;
  });
}
