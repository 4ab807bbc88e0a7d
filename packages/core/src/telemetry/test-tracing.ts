import { context, trace } from "@opentelemetry/api";
import { AsyncLocalStorageContextManager } from "@opentelemetry/context-async-hooks";
import {
  BasicTracerProvider,
  InMemorySpanExporter,
  type ReadableSpan,
  SimpleSpanProcessor,
} from "@opentelemetry/sdk-trace-base";

/**
 * Registers an in-memory tracer provider and the AsyncLocalStorage context manager globally,
 * as an application's OpenTelemetry set-up would. Test-only.
 */
export function installTestTracing(): InMemorySpanExporter {
  const exporter = new InMemorySpanExporter();
  trace.disable();
  context.disable();
  context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable());
  trace.setGlobalTracerProvider(
    new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] }),
  );
  return exporter;
}

/** The finished span named `name`; throws unless exactly one has it. */
export function onlySpan(spans: readonly ReadableSpan[], name: string): ReadableSpan {
  const found = spans.filter((span) => span.name === name);
  if (found.length !== 1) throw new Error(`expected one span ${name}, found ${found.length}`);
  return found[0]!;
}

/** The id of the span's parent, `undefined` for a root. */
export function parentOf(span: ReadableSpan): string | undefined {
  return span.parentSpanContext?.spanId;
}
