import { AbortedError } from "../error/aborted-error.js";
import { ToolCallRefusedError } from "../error/tool-call-refused-error.js";
import { ToolExecutionError } from "../error/tool-execution-error.js";
import { ToolNotFoundError } from "../error/tool-not-found-error.js";
import { ToolTimeoutError } from "../error/tool-timeout-error.js";
import { jsonForLog, unloggableArguments } from "../log/json-for-log.js";
import type { Logger } from "../log/logger.js";
import { traceToolExecution } from "../telemetry/agent-tracing.js";
import { parseToolArguments, type ToolContext, type ToolSpec } from "./primary-function.js";
import { normalizeToolArguments } from "./tool-arguments.js";
import type { ToolCall } from "./tool-call.js";
import type { ToolRecord } from "./tool-record.js";

/** How long a tool call may run unless the agent or the tool says otherwise. */
export const DEFAULT_TOOL_TIMEOUT_MS = 60_000;

/** The outcome of one tool call. Failures are values: they go back to the model. */
export type ToolExecution =
  | { ok: true; toolName: string; arguments: Record<string, unknown>; result: unknown }
  | { ok: false; toolName: string; arguments: unknown; error: Error };

/** A tool a call may select: what runs, and what was recorded of it. */
export interface ExecutableTool {
  readonly spec: ToolSpec;
  readonly record: ToolRecord;
}

/** The tools a call may select among; an agent's `ToolRegistry` is one. */
export interface ToolCatalogue {
  /** The tool of that name, if the call may select it. */
  find(name: string): ExecutableTool | undefined;
  /** Every name a call may select, for the error of a call to another one. */
  toolNames(): string[];
}

/** What {@link executeTool} needs besides the call. */
export interface ExecuteToolOptions {
  /** The only tools the call may run. */
  tools: ToolCatalogue;
  /** Handed to the tool; its signal cancels the call. */
  context: ToolContext;
  /** Time limit of the call unless the tool sets its own `timeoutMs`. */
  timeoutMs: number;
  /** Receives the completion line. */
  logger: Logger;
}

/**
 * Runs one tool call in an `execute_tool` span: checks the tool is in the catalogue and the
 * call's `module_path` (if any) matches its record, validates the arguments (applying
 * defaults), runs the tool within its time limit, and logs its completion. Never throws: every
 * failure (a timeout and an abort included) is returned for the model to see.
 */
export function executeTool(call: ToolCall, options: ExecuteToolOptions): Promise<ToolExecution> {
  const traced = {
    toolName: call.tool_name,
    toolCallId: options.context.toolCallId,
    arguments: call.arguments,
  };
  return traceToolExecution(traced, () => executeUntraced(call, options));
}

async function executeUntraced(
  call: ToolCall,
  { tools, context, timeoutMs, logger }: ExecuteToolOptions,
): Promise<ToolExecution> {
  const tool = tools.find(call.tool_name);
  try {
    if (!tool) {
      throw new ToolNotFoundError({ toolName: call.tool_name, availableTools: tools.toolNames() });
    }
    if (call.module_path !== undefined && call.module_path !== tool.record.module_path) {
      throw new ToolCallRefusedError({
        toolName: call.tool_name,
        requestedModulePath: String(call.module_path),
        registeredModulePath: tool.record.module_path,
      });
    }
    const args = await parseToolArguments(
      tool.spec,
      normalizeToolArguments(call.arguments, call.tool_name),
    );
    const result = await runWithinLimits(tool.spec, args, context, timeoutMs);
    const kind = tool.record.tool_type === "function" ? "function" : "module";
    logger.info(
      `Completed executing ${kind} tool ${call.tool_name}(${jsonForLog(args, unloggableArguments)})`,
    );
    return { ok: true, toolName: call.tool_name, arguments: args, result };
  } catch (error) {
    return {
      ok: false,
      toolName: call.tool_name,
      arguments: call.arguments,
      error: error instanceof Error ? error : new Error(String(error)),
    };
  }
}

/**
 * Runs a tool raced against its time limit and the caller's signal, so the call settles when
 * either fires even if the tool never looks at its signal. The tool's own signal is aborted
 * then too, for a tool that can stop early.
 */
async function runWithinLimits(
  spec: ToolSpec,
  args: Record<string, unknown>,
  context: ToolContext,
  defaultTimeoutMs: number,
): Promise<unknown> {
  const timeoutMs = spec.timeoutMs ?? defaultTimeoutMs;
  const controller = new AbortController();
  let stop: (error: Error) => void = () => {};
  const stopped = new Promise<never>((_, reject) => {
    stop = reject;
  });
  const onAbort = () => {
    const error = new AbortedError({
      operation: `tool ${spec.name}`,
      cause: context.signal.reason,
    });
    controller.abort(error);
    stop(error);
  };
  const timer = setTimeout(() => {
    const error = new ToolTimeoutError({ toolName: spec.name, timeoutMs });
    controller.abort(error);
    stop(error);
  }, timeoutMs);
  if (context.signal.aborted) onAbort();
  else context.signal.addEventListener("abort", onAbort, { once: true });
  try {
    // Async, so that a tool throwing before it returns a promise is caught here too.
    const running = (async () =>
      spec.execute(args, { ...context, signal: controller.signal }))().catch((error: unknown) => {
      throw new ToolExecutionError({ toolName: spec.name, cause: error });
    });
    return await Promise.race([running, stopped]);
  } finally {
    clearTimeout(timer);
    context.signal.removeEventListener("abort", onAbort);
  }
}
