/** The outcome of one tool call. Failures are values: they go back to the model. */
export type ToolExecution =
  | { ok: true; toolName: string; arguments: Record<string, unknown>; result: unknown }
  | { ok: false; toolName: string; arguments: unknown; error: Error };
