import type { z } from "zod";
import { schemaIssues } from "../error/schema-issues.js";
import { ToolArgumentsError } from "../error/tool-arguments-error.js";
import { getDefaultLogger, type Logger } from "../log/logger.js";
import type { JsonSchema } from "../model/chat-model.js";

/** What a tool knows about the call it is serving. */
export interface ToolContext {
  /** Aborted when the agent run is cancelled; long-running tools should honour it. */
  signal: AbortSignal;
  /** Where the tool reports what the spec calls "prints". */
  logger: Logger;
  /** The id of the tool call being served, when called by an agent. */
  toolCallId?: string;
}

/** Any zod object schema usable as a tool's parameters. */
export type ToolParameters = z.ZodObject<z.ZodRawShape>;

/** Everything a tool declares about itself besides its code. */
export interface ToolMeta<P extends ToolParameters, R> {
  /** The tool name; defaults to the function's name. */
  name?: string;
  /** Purpose; the first line is the record's `docstring`, the whole text is shown to the model. */
  description: string;
  /** The single object argument the tool takes. Defaults are applied before the call. */
  parameters: P;
  /**
   * The JSON Schema the model is shown for the arguments, when it should not be derived from
   * `parameters`: for tools whose schema comes from elsewhere (an MCP server's `inputSchema`),
   * with `parameters` then validating against that schema itself.
   */
  parametersJsonSchema?: JsonSchema;
  /** The return type name or description, stored as the record's `return`. */
  returns: string;
  /**
   * How long one call may run, in milliseconds, over the agent's `toolTimeoutMs` (default
   * 60 000). When it expires the tool's signal is aborted and the model gets an error result,
   * even if the tool never looks at its signal.
   */
  timeoutMs?: number;
  /**
   * Whether a person must approve a call before it runs: always, or when the function says so
   * for the call's validated arguments. The agent asks its `approveToolCall`; without one (and
   * outside a graph, where the question becomes an interrupt) the call is declined.
   */
  needsApproval?: boolean | ((args: z.output<P>) => boolean | Promise<boolean>);
  /**
   * Renders a result as the text the model sees. Without it, results are serialised to JSON
   * and shortened past the agent's size cap with a visible marker.
   */
  toModelOutput?(result: Awaited<R>): string;
}

/** A tool's metadata after `primaryFunction` resolved its name. */
export interface ToolSpec<P extends ToolParameters = ToolParameters, R = unknown>
  extends ToolMeta<P, R> {
  name: string;
  /** Runs the tool body on already-validated arguments. */
  execute(args: z.output<P>, context: ToolContext): Promise<Awaited<R>>;
}

const toolSymbol = Symbol.for("framework.tool");

/**
 * A registrable tool: callable like the original function with one object of named arguments
 * (validated, defaults applied), and carrying its {@link ToolSpec}.
 */
export type PrimaryFunction<P extends ToolParameters = ToolParameters, R = unknown> = ((
  args?: z.input<P>,
  context?: Partial<ToolContext>,
) => Promise<Awaited<R>>) & { readonly [toolSymbol]: ToolSpec<P, R> };

/**
 * Marks a function as a registrable tool. The returned function still calls `fn`, after
 * validating its argument object against `meta.parameters` and applying defaults, exactly
 * as a tool call from a model does.
 *
 * @example
 * export const get_current_time = primaryFunction(
 *   { description: "Current local time.", parameters: z.object({}), returns: "str" },
 *   async function get_current_time() { return new Date().toISOString(); },
 * );
 */
export function primaryFunction<P extends ToolParameters, R>(
  meta: ToolMeta<P, R>,
  fn: (args: z.output<P>, context: ToolContext) => R | Promise<R>,
): PrimaryFunction<P, R> {
  const name = meta.name ?? fn.name;
  if (!name) {
    throw new TypeError("primaryFunction needs a named function or meta.name");
  }
  const spec: ToolSpec<P, R> = {
    ...meta,
    name,
    execute: (args, context) => Promise.resolve(fn(args, context)) as Promise<Awaited<R>>,
  };
  const tool = async (args: z.input<P> = {} as z.input<P>, context: Partial<ToolContext> = {}) => {
    const parsed = await parseToolArguments(spec, args);
    return spec.execute(parsed, {
      signal: context.signal ?? new AbortController().signal,
      logger: context.logger ?? getDefaultLogger(),
      ...(context.toolCallId === undefined ? {} : { toolCallId: context.toolCallId }),
    });
  };
  Object.defineProperty(tool, "name", { value: name });
  Object.defineProperty(tool, toolSymbol, { value: spec, enumerable: false });
  return tool as PrimaryFunction<P, R>;
}

/**
 * Any tool, whatever its parameters and result: the type of lists and registries of tools.
 * (Its argument is `never` because a specific tool accepts only its own arguments.)
 */
export type AnyPrimaryFunction = ((
  args?: never,
  context?: Partial<ToolContext>,
) => Promise<unknown>) & { readonly [toolSymbol]: ToolSpec };

/** True when `value` was made by {@link primaryFunction} (from any copy of this package). */
export function isPrimaryFunction(value: unknown): value is AnyPrimaryFunction {
  return typeof value === "function" && toolSymbol in value;
}

/** The spec behind a tool made by {@link primaryFunction}. */
export function getToolSpec(tool: AnyPrimaryFunction): ToolSpec {
  return tool[toolSymbol];
}

/**
 * Validates a tool's argument object and applies its defaults. Throws
 * {@link ToolArgumentsError} listing every problem by argument name.
 */
export async function parseToolArguments<P extends ToolParameters>(
  spec: Pick<ToolSpec<P>, "name" | "parameters">,
  args: unknown,
): Promise<z.output<P>> {
  const result = await spec.parameters.safeParseAsync(args ?? {});
  if (result.success) return result.data;
  throw new ToolArgumentsError({
    toolName: spec.name,
    issues: schemaIssues(result.error.issues, "(arguments)"),
  });
}
