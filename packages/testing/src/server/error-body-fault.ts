import type { FakeResponse } from "./fake-server.js";

/**
 * The shapes real services give their error bodies, for {@link errorBodyFault}:
 * - `openai`: `{ "error": { "message", "type", "param", "code" } }` (OpenAI, Together, Groq);
 * - `message`: `{ "message": "..." }` (API gateways, several compatible servers);
 * - `detail`: `{ "detail": "..." }` (FastAPI servers, vLLM's router);
 * - `detail-error`: `{ "detail": { "error": "..." } }` (Tavily);
 * - `detail-list`: FastAPI's validation answer, `{ "detail": [{ "loc", "msg", "type" }] }`;
 * - `error-string`: `{ "error": "..." }` (Ollama, llama.cpp's server);
 * - `problem`: RFC 7807 `application/problem+json`, `{ "type", "title", "status", "detail" }`;
 * - `html`: a proxy's HTML error page, the message as its title;
 * - `text`: the message as plain text.
 */
export type ErrorBodyShape =
  | "openai"
  | "message"
  | "detail"
  | "detail-error"
  | "detail-list"
  | "error-string"
  | "problem"
  | "html"
  | "text";

/** Every {@link ErrorBodyShape}, for tests that go through them all. */
export const errorBodyShapes: readonly ErrorBodyShape[] = [
  "openai",
  "message",
  "detail",
  "detail-error",
  "detail-list",
  "error-string",
  "problem",
  "html",
  "text",
];

/**
 * An error answer with HTTP `status` whose body says `message` in the given `shape`. Every
 * shape carries the message whole, so a client that reads the body right reports it.
 */
export function errorBodyFault(
  status: number,
  shape: ErrorBodyShape,
  message: string,
): FakeResponse {
  switch (shape) {
    case "openai":
      return {
        status,
        body: { error: { message, type: "invalid_request_error", param: null, code: null } },
      };
    case "message":
      return { status, body: { message } };
    case "detail":
      return { status, body: { detail: message } };
    case "detail-error":
      return { status, body: { detail: { error: message } } };
    case "detail-list":
      return {
        status,
        body: { detail: [{ loc: ["body", "messages"], msg: message, type: "value_error" }] },
      };
    case "error-string":
      return { status, body: { error: message } };
    case "problem":
      return {
        status,
        headers: { "content-type": "application/problem+json" },
        body: JSON.stringify({ type: "about:blank", title: message, status }),
      };
    case "html":
      return {
        status,
        headers: { "content-type": "text/html" },
        body: `<html><head><title>${message}</title></head><body><center><h1>${message}</h1></center><hr><center>nginx</center></body></html>`,
      };
    case "text":
      return { status, headers: { "content-type": "text/plain" }, body: message };
  }
}
