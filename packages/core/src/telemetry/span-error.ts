import { type Span, SpanStatusCode } from "@opentelemetry/api";
import { errorMessage } from "../error/error-message.js";
import { redactSecrets } from "../log/redact.js";

/**
 * Marks `span` failed and records `error` as its exception event, with every known secret,
 * URL credential and bearer token redacted from the message and stack: an exporter ships
 * spans off the machine, so they get the same redaction as log lines.
 */
export function recordSpanError(span: Span, error: unknown): void {
  const message = redactSecrets(errorMessage(error));
  span.setStatus({ code: SpanStatusCode.ERROR, message });
  span.recordException({
    name: error instanceof Error ? error.name : "Error",
    message,
    ...(error instanceof Error && error.stack ? { stack: redactSecrets(error.stack) } : {}),
  });
  if (error instanceof Error) span.setAttribute("error.type", error.name);
}
