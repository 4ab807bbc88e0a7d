import { ModelCallError } from "../error/model-call-error.js";

// What providers say when they refuse a `response_format` they do not support, e.g.
// OpenAI: "Invalid parameter: 'response_format' of type 'json_schema' is not supported with
// this model"; Groq: "This model does not support response format `json_schema`";
// DeepSeek: "This response_format type is unavailable now"; vLLM and other FastAPI servers:
// a validation error at body.response_format; others speak of "structured output(s)". A bare
// "JSON schema" is not enough: a tool whose parameters a provider refuses is described so too.
const refusalPattern = /response[_ .]?format|json_schema|structured[ _-]?outputs?/i;

/**
 * Whether `error` is a provider's refusal of the request's `response_format`: HTTP 400 whose
 * error body names `response_format`, `json_schema` or structured outputs. Any other 400 (a
 * context too long, a bad message, a tool's schema) is not.
 */
export function isResponseFormatRefusal(error: unknown): error is ModelCallError {
  return (
    ModelCallError.isInstance(error) &&
    error.statusCode === 400 &&
    refusalPattern.test(error.upstreamMessage ?? "")
  );
}

/** Models (base URL and model name) that refused `response_format`, for the whole process. */
const refusing = new Set<string>();

const key = (baseURL: string, modelId: string) => `${baseURL}\n${modelId}`;

/** Whether the model at `baseURL` refused `response_format` earlier in this process. */
export function refusedResponseFormat(baseURL: string, modelId: string): boolean {
  return refusing.has(key(baseURL, modelId));
}

/**
 * Remembers that the model at `baseURL` refuses `response_format`. Returns `true` the first
 * time only, so the caller reports it once however many calls were refused at once.
 */
export function rememberResponseFormatRefusal(baseURL: string, modelId: string): boolean {
  const entry = key(baseURL, modelId);
  if (refusing.has(entry)) return false;
  refusing.add(entry);
  return true;
}
