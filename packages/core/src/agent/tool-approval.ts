import { ToolCallDeclinedError } from "../error/tool-call-declined-error.js";
import type { ToolCatalogue } from "../tool/execute-tool.js";
import { normalizeToolArguments } from "../tool/tool-arguments.js";
import type { PendingToolCall } from "../tool/tool-call.js";

/** A tool call waiting for a person's decision. */
export interface ToolApprovalRequest {
  /** The id the call's result is reported under. */
  toolCallId: string;
  toolName: string;
  /** The arguments, validated and with defaults applied, exactly as the tool would get them. */
  arguments: Record<string, unknown>;
}

/**
 * Decides whether a tool marked `needsApproval` may run: `true` runs it, `false` tells the
 * model the user declined. It may take as long as a person needs; the run's signal still
 * cancels the run.
 */
export type ApproveToolCall = (call: ToolApprovalRequest) => boolean | Promise<boolean>;

/**
 * Asks for approval when the called tool needs it. Returns the refusal to report instead of
 * running the call, or `undefined` to run it. Calls whose tool or arguments are invalid are
 * let through: running them only reports that error, nothing runs.
 */
export async function declinedCall(
  tools: ToolCatalogue,
  approve: ApproveToolCall | undefined,
  { id, call }: PendingToolCall,
): Promise<ToolCallDeclinedError | undefined> {
  const spec = tools.find(call.tool_name)?.spec;
  if (!spec?.needsApproval) return undefined;
  let args: Record<string, unknown>;
  try {
    args = normalizeToolArguments(call.arguments, call.tool_name);
  } catch {
    return undefined;
  }
  const parsed = await spec.parameters.safeParseAsync(args);
  if (!parsed.success) return undefined;
  const needed = spec.needsApproval === true || (await spec.needsApproval(parsed.data));
  if (!needed) return undefined;
  if (!approve) return new ToolCallDeclinedError({ toolName: spec.name, asked: false });
  const approved = await approve({
    toolCallId: id,
    toolName: spec.name,
    arguments: parsed.data,
  });
  return approved ? undefined : new ToolCallDeclinedError({ toolName: spec.name, asked: true });
}
