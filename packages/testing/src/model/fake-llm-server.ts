import { randomUUID } from "node:crypto";
import {
  type FakeResponse,
  type FakeServer,
  type RecordedRequest,
  startFakeServer,
} from "../server/fake-server.js";
import { llmResponseFormatRefusalFault } from "./fake-llm-faults.js";
import {
  chatCompletionBody,
  chatCompletionEvents,
  type FakeLLMContentFormat,
  openAIErrorBody,
} from "./fake-llm-responses.js";
import type { OpenAIChatRequestBody } from "./openai-wire.js";
import { proseAnswer } from "./prose-answer.js";
import { estimateUsage, ReplyScript, resolveAnswer, type ScriptedReply } from "./scripted-reply.js";

/**
 * One entry of a fake LLM server's script: a reply, or a function of the parsed request body
 * and the 0-based index of the scripted call. An `Error` reply is answered with HTTP 500.
 */
export type FakeLLMReply = ScriptedReply<OpenAIChatRequestBody>;

/** Options of {@link startFakeLLMServer}. */
export interface StartFakeLLMServerOptions {
  /** Answers, in order, to the chat requests that no injected fault took. */
  replies?: FakeLLMReply[];
  /** Answers every chat request after the script runs out; without it they get HTTP 500. */
  defaultReply?: FakeLLMReply;
  /** Delay added to every answer, e.g. to stand in for a real model in benchmarks. */
  latencyMs?: number;
  /** When set, requests must carry `Authorization: Bearer <apiKey>`, else HTTP 401. */
  apiKey?: string;
  /** How answers carry their text and reasoning (default `string`, OpenAI's own shape). */
  contentFormat?: FakeLLMContentFormat;
  /**
   * Answer as a model that writes prose whatever it is asked, as many local and smaller
   * models do: a scripted answer without tool calls whose text is a JSON object or array is
   * sent as sentences instead (`{"action":"hold"}` becomes `Action: hold.`), even when the
   * request asks for JSON with `response_format`. Tool calls and plain text are sent as
   * scripted. Default `false`.
   */
  answersInProse?: boolean;
  /**
   * Answer as a provider without structured outputs: every chat request carrying a
   * `response_format` gets {@link llmResponseFormatRefusalFault}'s HTTP 400, taking no reply
   * from the script. Default `false`: `response_format` is accepted (and not enforced).
   */
  refusesResponseFormat?: boolean;
}

/** A running OpenAI-compatible fake. */
export interface FakeLLMServer extends FakeServer {
  /** `${url}/v1`, ready for `baseURL` / `LLM_API_URL`. */
  readonly baseURL: string;
  /** The JSON bodies of every chat request received (fault-answered ones included). */
  readonly chatRequests: OpenAIChatRequestBody[];
  /** Appends replies to the script. */
  addReplies(...replies: FakeLLMReply[]): void;
}

function isChatRequestBody(value: unknown): value is OpenAIChatRequestBody {
  return (
    typeof value === "object" &&
    value !== null &&
    Array.isArray((value as { messages?: unknown }).messages)
  );
}

function isChatPath(request: RecordedRequest): boolean {
  return request.path.endsWith("/chat/completions");
}

// OpenAI shows a wrong key masked in its 401 message; so does the fake.
function maskKey(key: string): string {
  return key.length > 8 ? `${key.slice(0, 3)}${"*".repeat(key.length - 7)}${key.slice(-4)}` : "***";
}

function promptTexts(body: OpenAIChatRequestBody): string[] {
  return body.messages.map((message) =>
    typeof message.content === "string" ? message.content : JSON.stringify(message.content ?? ""),
  );
}

/**
 * Starts an OpenAI-compatible chat-completions server on 127.0.0.1: it answers
 * `POST <any prefix>/chat/completions` with real response shapes, streams server-sent events
 * when the body says `stream: true`, and inherits request recording and fault injection from
 * {@link startFakeServer} (see `llmRateLimitFault` and its siblings).
 *
 * @example
 * const server = await startFakeLLMServer({ replies: ["Hello!"] });
 * const llm = new OpenAIChatModel({ baseURL: server.baseURL, apiKey: "test-key" });
 */
export async function startFakeLLMServer(
  options: StartFakeLLMServerOptions | FakeLLMReply[] = {},
): Promise<FakeLLMServer> {
  const settings = Array.isArray(options) ? { replies: options } : options;
  const script = new ReplyScript(settings.replies ?? [], settings.defaultReply, "fake LLM server");
  let scriptedCalls = 0;

  const answer = async (request: RecordedRequest): Promise<FakeResponse> => {
    if (request.method !== "POST" || !isChatPath(request)) {
      return {
        status: 404,
        body: openAIErrorBody(
          `Unknown request URL: ${request.method} ${request.path}.`,
          "invalid_request_error",
          "unknown_url",
        ),
      };
    }
    const authorization = request.headers.authorization ?? "";
    if (settings.apiKey !== undefined && authorization !== `Bearer ${settings.apiKey}`) {
      return {
        status: 401,
        body: openAIErrorBody(
          `Incorrect API key provided: ${maskKey(authorization.replace(/^Bearer\s+/i, ""))}.`,
          "invalid_request_error",
          "invalid_api_key",
        ),
      };
    }
    const body = request.json;
    if (!isChatRequestBody(body)) {
      return {
        status: 400,
        body: openAIErrorBody(
          "The request body must be a JSON object with a messages array.",
          "invalid_request_error",
        ),
      };
    }
    if (settings.refusesResponseFormat && body.response_format !== undefined) {
      return llmResponseFormatRefusalFault();
    }
    const callIndex = scriptedCalls++;
    let value: Awaited<ReturnType<typeof script.next>>;
    try {
      value = await script.next(body, callIndex);
    } catch (error) {
      value = error instanceof Error ? error : new Error(String(error));
    }
    if (value instanceof Error) {
      return { status: 500, body: openAIErrorBody(value.message, "server_error") };
    }
    const scripted = resolveAnswer(value, callIndex);
    const resolved =
      settings.answersInProse && scripted.toolCalls.length === 0 && scripted.content !== null
        ? { ...scripted, content: proseAnswer(scripted.content) }
        : scripted;
    const usage = resolved.usage ?? estimateUsage(promptTexts(body), resolved);
    const model = typeof body.model === "string" ? body.model : "fake-model";
    const id = `chatcmpl-${randomUUID()}`;
    if (body.stream === true) {
      return {
        status: 200,
        headers: { "content-type": "text/event-stream", "cache-control": "no-cache" },
        body: chatCompletionEvents(
          resolved,
          usage,
          model,
          id,
          body.stream_options?.include_usage === true,
          settings.contentFormat,
        ),
      };
    }
    return {
      status: 200,
      body: chatCompletionBody(resolved, usage, model, id, settings.contentFormat),
    };
  };

  const server = await startFakeServer(
    answer,
    settings.latencyMs !== undefined ? { latencyMs: settings.latencyMs } : {},
  );

  return {
    ...server,
    baseURL: `${server.url}/v1`,
    get chatRequests() {
      return server.requests
        .filter(isChatPath)
        .map((request) => request.json)
        .filter(isChatRequestBody);
    },
    addReplies: (...replies) => script.add(...replies),
  };
}
