import type { ToolDefinition } from "../model/chat-model.js";
import type { ToolRecord } from "../tool/tool-record.js";

/** How the model is asked to call tools. */
export type ToolCallingMode = "native" | "json";

/** What the system prompt is made of. */
export interface SystemPromptParts {
  description: string;
  skills: readonly string[];
  /** Extra standing instructions, e.g. an agent node's `instruction`. */
  instruction?: string;
  toolCalling: ToolCallingMode;
  /** Needed in JSON mode, where the prompt itself lists the tools. */
  tools?: readonly { definition: ToolDefinition; record: ToolRecord | undefined }[];
}

const argumentRule =
  "When you call a tool, give its arguments as a JSON object of named arguments, never as a plain string.";

/** Builds the system message of an agent. */
export function buildSystemPrompt(parts: SystemPromptParts): string {
  const sections = [parts.description.trim()];
  if (parts.skills.length > 0) {
    sections.push(`Your skills:\n${parts.skills.map((skill) => `- ${skill}`).join("\n")}`);
  }
  if (parts.instruction?.trim()) sections.push(parts.instruction.trim());
  sections.push(argumentRule);
  if (parts.toolCalling === "json") sections.push(jsonModeInstructions(parts.tools ?? []));
  return sections.join("\n\n");
}

function jsonModeInstructions(tools: NonNullable<SystemPromptParts["tools"]>): string {
  const catalogue = tools
    .map(({ definition, record }) =>
      JSON.stringify({
        tool_name: definition.name,
        tool_type: record?.tool_type,
        module_path: record?.module_path,
        description: definition.description,
        arguments_schema: definition.parameters,
      }),
    )
    .join("\n");
  return [
    "You can call these tools (one JSON description per line):",
    catalogue || "(none)",
    'To call a tool, reply with only a JSON object: {"tool_name": "<name>", "tool_type": "<tool_type>", "module_path": "<module_path>", "arguments": {"<argument>": <value>}}. To call several tools at once, reply with a JSON list of such objects.',
    "When you need no more tools, reply with your final answer in plain text, without any JSON tool call.",
  ].join("\n");
}

/** The user message that carries tool results back in JSON mode. */
export function jsonModeToolResults(
  results: readonly { id: string; toolName: string; output: string }[],
): string {
  return results
    .map(({ id, toolName, output }) => `Result of tool call ${id} (${toolName}):\n${output}`)
    .join("\n\n");
}

/** Asks for the final answer once the iteration limit is reached. */
export const finalAnswerRequest =
  "You have reached the limit of tool calls for this request. Using the results you already have, give your final answer now, without calling any tool.";
