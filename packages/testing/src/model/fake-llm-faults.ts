import type { FakeResponse } from "../server/fake-server.js";
import { chatCompletionEvents, openAIErrorBody } from "./fake-llm-responses.js";
import { resolveAnswer } from "./scripted-reply.js";

/** Options of {@link llmRateLimitFault}. Without any, no Retry-After header is sent. */
export interface LLMRateLimitFaultOptions {
  /** Sent as `Retry-After`: seconds, or an HTTP date when a string. */
  retryAfter?: number | string;
  /** Sent as `retry-after-ms`, as OpenAI does. */
  retryAfterMs?: number;
}

/** HTTP 429 with OpenAI's rate-limit error body, for `server.injectFaults(...)`. */
export function llmRateLimitFault(options: LLMRateLimitFaultOptions = {}): FakeResponse {
  const headers: Record<string, string> = {};
  if (options.retryAfter !== undefined) headers["retry-after"] = String(options.retryAfter);
  if (options.retryAfterMs !== undefined) headers["retry-after-ms"] = String(options.retryAfterMs);
  return {
    status: 429,
    headers,
    body: openAIErrorBody(
      "Rate limit reached for requests. Please try again later.",
      "requests",
      "rate_limit_exceeded",
    ),
  };
}

/** A server error (500, 502, 503 or 504) with an OpenAI error body. */
export function llmServerErrorFault(status: 500 | 502 | 503 | 504 = 500): FakeResponse {
  return {
    status,
    body: openAIErrorBody(
      `The server had an error processing your request (${status}).`,
      "server_error",
    ),
  };
}

/**
 * HTTP 400 with OpenAI's own answer to a `response_format` of type `json_schema` that the model
 * does not support (`param: "response_format"`), as providers without structured outputs
 * refuse it.
 */
export function llmResponseFormatRefusalFault(): FakeResponse {
  return {
    status: 400,
    body: {
      error: {
        message:
          "Invalid parameter: 'response_format' of type 'json_schema' is not supported with this model. Learn more about supported models at the Structured Outputs guide: https://platform.openai.com/docs/guides/structured-outputs",
        type: "invalid_request_error",
        param: "response_format",
        code: null,
      },
    },
  };
}

/** HTTP 200 whose body claims to be JSON but is not. */
export function llmMalformedBodyFault(): FakeResponse {
  return {
    status: 200,
    headers: { "content-type": "application/json" },
    body: '{"id": "chatcmpl-broken", "choices": [',
  };
}

/** Never answers: the client's timeout or abort must end the call. */
export function llmHangFault(): FakeResponse {
  return { hang: true };
}

/**
 * A streamed answer whose connection drops about halfway through the events, before the
 * finish chunk. For requests with `stream: true`.
 */
export function llmStreamCutFault(
  text = "This streamed answer is cut off before it is finished, mid-way through its chunks.",
): FakeResponse {
  const answer = resolveAnswer(text, 0);
  const events = chatCompletionEvents(
    answer,
    { inputTokens: 1, outputTokens: 1, totalTokens: 2 },
    "fake-model",
    "chatcmpl-cut",
    true,
  );
  return {
    status: 200,
    headers: { "content-type": "text/event-stream" },
    body: events,
    cutAfterBytes: Math.floor(Buffer.byteLength(events) / 2),
  };
}
