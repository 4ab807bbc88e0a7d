import { describe, expect, it } from "vitest";
import { ModelCallError } from "../error/model-call-error.js";
import { isResponseFormatRefusal } from "./response-format-refusal.js";

const failure = (statusCode: number, upstreamMessage: string) =>
  new ModelCallError({
    kind: "http",
    provider: "openai-compatible",
    modelId: "m",
    statusCode,
    retryable: false,
    attempts: 1,
    upstreamMessage,
  });

describe("isResponseFormatRefusal", () => {
  // What providers answered, word for word, to a response_format they do not support.
  it.each([
    [
      "OpenAI",
      "Invalid parameter: 'response_format' of type 'json_schema' is not supported with this model. Learn more about supported models at the Structured Outputs guide: https://platform.openai.com/docs/guides/structured-outputs",
    ],
    [
      "Groq, a model without it",
      "This model does not support response format `json_schema`. See supported models at https://console.groq.com/docs/structured-outputs#supported-models",
    ],
    [
      "Groq, a type it does not know",
      "'response_format.type' : value is not one of the allowed values ['text','json_object']",
    ],
    ["Groq, when streaming", "response_format` does not support streaming"],
    ["DeepSeek", "This response_format type is unavailable now"],
    ["vLLM's validation", "body.response_format.type: Input should be 'text' or 'json_object'"],
    ["a gateway", "Structured outputs are not available for this model"],
  ])("recognises %s's HTTP 400", (_, message) => {
    expect(isResponseFormatRefusal(failure(400, message))).toBe(true);
  });

  it.each([
    [
      "a context too long",
      400,
      "This model's maximum context length is 8192 tokens. However, your messages resulted in 9120 tokens.",
    ],
    [
      "a tool's schema",
      400,
      "Invalid schema for function 'get_weather': the JSON schema must be an object",
    ],
    ["a server error naming response_format", 500, "response_format handler crashed"],
  ])("does not take %s for one", (_, status, message) => {
    expect(isResponseFormatRefusal(failure(status, message))).toBe(false);
  });

  it("takes only a model call error", () => {
    expect(isResponseFormatRefusal(new Error("response_format"))).toBe(false);
  });
});
