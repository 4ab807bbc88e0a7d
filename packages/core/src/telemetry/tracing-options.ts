import type { TracerProvider } from "@opentelemetry/api";

/** How an {@link Agent} reports its runs to OpenTelemetry. */
export interface TracingOptions {
  /**
   * Record prompts, completions, tool arguments and tool results on the spans (redacted, and
   * cut at {@link MAX_TRACED_CONTENT_LENGTH} characters each). Default `false`: spans carry
   * names, ids, token counts and finish reasons only, since content may be personal data.
   */
  recordContent?: boolean;
  /** `gen_ai.agent.name` of the `invoke_agent` span and part of its name. */
  agentName?: string;
  /** Where the spans go. Default: the globally registered provider (a no-op if none). */
  tracerProvider?: TracerProvider;
}

/** The longest content attribute a span gets; longer text is cut and marked. */
export const MAX_TRACED_CONTENT_LENGTH = 16_384;
