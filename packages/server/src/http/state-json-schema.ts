import { z } from "zod";
import type { ServedAssistant } from "../assistant/served-assistant.js";

type JsonSchemaObject = Record<string, unknown>;

const wireMessage = z.object({
  type: z.enum(["human", "ai", "tool", "system"]),
  id: z.string(),
  content: z.string(),
  tool_calls: z
    .array(
      z.object({
        id: z.string(),
        name: z.string(),
        args: z.unknown(),
        type: z.literal("tool_call"),
      }),
    )
    .optional(),
  tool_call_id: z.string().optional(),
  name: z.string().optional(),
});

const agentInput = z.object({
  messages: z.array(
    z.object({
      role: z.enum(["user", "system", "assistant"]).optional(),
      type: z.enum(["human", "user", "system", "ai", "assistant"]).optional(),
      content: z.union([z.string(), z.array(z.looseObject({ type: z.string() }))]),
      id: z.string().optional(),
    }),
  ),
});

const agentState = z.object({ messages: z.array(wireMessage) });

const cache = new WeakMap<ServedAssistant, ReturnType<typeof compute>>();

/** The `/schemas` answer of an assistant: JSON Schemas of its input, output and state. */
export function graphJsonSchemas(assistant: ServedAssistant) {
  let schemas = cache.get(assistant);
  if (!schemas) {
    schemas = compute(assistant);
    cache.set(assistant, schemas);
  }
  return schemas;
}

function compute(assistant: ServedAssistant) {
  const [input, state] =
    assistant.kind === "agent" ? [agentInput, agentState] : stateSchemas(assistant);
  const stateJson = toJson(state);
  return {
    graph_id: assistant.graphId,
    input_schema: toJson(input),
    output_schema: stateJson,
    state_schema: stateJson,
    config_schema: null,
    context_schema: null,
  };
}

function stateSchemas(assistant: ServedAssistant): [z.ZodType, z.ZodType] {
  const shape: Record<string, z.ZodType> = {};
  for (const [key, entry] of Object.entries(assistant.graph.definition.shape)) {
    shape[key] = entry instanceof z.ZodType ? entry : (entry as { schema: z.ZodType }).schema;
  }
  const state = z.object(shape);
  return [state.partial(), state];
}

// Schemas JSON Schema cannot express (transforms, custom checks) are described as "any".
function toJson(schema: z.ZodType): JsonSchemaObject {
  return z.toJSONSchema(schema, { unrepresentable: "any", io: "input" }) as JsonSchemaObject;
}
