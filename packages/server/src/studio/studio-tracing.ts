import type { Context } from "@opentelemetry/api";
import { context, trace } from "@opentelemetry/api";
import { AsyncLocalStorageContextManager } from "@opentelemetry/context-async-hooks";
import {
  BasicTracerProvider,
  type ReadableSpan,
  type Span,
  type SpanProcessor,
} from "@opentelemetry/sdk-trace-base";
import type { StudioSpanProcessor } from "./studio-span-processor.js";

/** The provider this package registered for the process, shared by its studio servers. */
interface SharedProvider {
  readonly processors: Set<StudioSpanProcessor>;
  readonly ownsContextManager: boolean;
}

let shared: SharedProvider | undefined;

/** Hands every span to each attached studio processor. */
function fanOut(processors: Set<StudioSpanProcessor>): SpanProcessor {
  return {
    onStart: (span: Span, parent: Context) => {
      for (const processor of processors) processor.onStart(span, parent);
    },
    onEnd: (span: ReadableSpan) => {
      for (const processor of processors) processor.onEnd(span);
    },
    forceFlush: async () => {},
    shutdown: async () => {},
  };
}

/** What {@link recordStudioSpans} did. */
export interface StudioSpanRecording {
  /** Whether spans reach the processor (false: the app registered a provider of its own). */
  readonly recording: boolean;
  /** Detaches the processor; the last one out unregisters what this package registered. */
  release(): void;
}

/**
 * Feeds `processor` every span of the process through the global OpenTelemetry API, which is
 * where `@framework/core` and `@framework/graph` start theirs. It registers a tracer provider
 * (and an `AsyncLocalStorage` context manager, without which spans do not nest) only when the
 * process has none: a provider the app registered is never replaced, and then nothing is
 * recorded unless the app added a `StudioSpanProcessor` to its own provider.
 */
export function recordStudioSpans(processor: StudioSpanProcessor): StudioSpanRecording {
  if (!shared) {
    const processors = new Set<StudioSpanProcessor>();
    const provider = new BasicTracerProvider({ spanProcessors: [fanOut(processors)] });
    if (!trace.setGlobalTracerProvider(provider)) {
      return { recording: false, release: () => {} };
    }
    const ownsContextManager = context.setGlobalContextManager(
      new AsyncLocalStorageContextManager().enable(),
    );
    shared = { processors, ownsContextManager };
  }
  const current = shared;
  current.processors.add(processor);
  let released = false;
  return {
    recording: true,
    release() {
      if (released) return;
      released = true;
      current.processors.delete(processor);
      if (current.processors.size > 0 || shared !== current) return;
      shared = undefined;
      trace.disable();
      if (current.ownsContextManager) context.disable();
    },
  };
}
