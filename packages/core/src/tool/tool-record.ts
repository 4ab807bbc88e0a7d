import { randomUUID } from "node:crypto";
import { z } from "zod";
import type { JsonSchema } from "../model/chat-model.js";
import type { ToolSpec } from "./primary-function.js";

/** How a tool came to be registered. */
export type ToolType = "module" | "function";

/**
 * The record stored for each registered tool, with exactly the specification's field names
 * (they cross into the registry file and the model's prompt).
 */
export interface ToolRecord {
  tool_name: string;
  /** Argument name to its default value, or to its type name when it has no default. */
  arguments: Record<string, unknown>;
  /** Return type name or description. */
  return: string;
  /** First line of the tool's description. */
  docstring: string;
  /** npm packages the tool's package depends on. */
  dependencies: string[];
  /** The module specifier the tool was loaded from, or `"runtime"`. */
  module_path: string;
  tool_type: ToolType;
  /** `tool_<uuid>`, unique per registration. */
  tool_call_id: string;
  /** Present and true for tools registered at runtime with `registerFunctionTool`. */
  is_runtime?: true;
}

/** The `module_path` of runtime-registered tools. */
export const RUNTIME_MODULE_PATH = "runtime";

/** The `module_path` recorded for tools given as objects rather than specifiers. */
export const INLINE_MODULE_PATH = "inline";

/** Where a tool being recorded came from. */
export interface ToolOrigin {
  modulePath: string;
  toolType: ToolType;
  dependencies: string[];
  isRuntime?: boolean;
}

/** Builds the stored record of a tool. */
export function createToolRecord(spec: ToolSpec, origin: ToolOrigin): ToolRecord {
  return {
    tool_name: spec.name,
    arguments: describeArguments(toolInputJsonSchema(spec)),
    return: spec.returns,
    docstring: spec.description.trim().split("\n")[0]?.trim() ?? "",
    dependencies: origin.dependencies,
    module_path: origin.modulePath,
    tool_type: origin.toolType,
    tool_call_id: `tool_${randomUUID()}`,
    ...(origin.isRuntime ? { is_runtime: true as const } : {}),
  };
}

/**
 * The JSON Schema of a tool's arguments as sent to a model, without the `$schema` marker that
 * some providers reject.
 */
export function toolParametersJsonSchema(parameters: z.ZodType): JsonSchema {
  const { $schema: _, ...schema } = z.toJSONSchema(parameters, {
    io: "input",
    unrepresentable: "any",
  }) as JsonSchema;
  return schema;
}

/** The JSON Schema of a tool's arguments: its own `parametersJsonSchema`, or its parameters'. */
export function toolInputJsonSchema(
  spec: Pick<ToolSpec, "parameters" | "parametersJsonSchema">,
): JsonSchema {
  return spec.parametersJsonSchema ?? toolParametersJsonSchema(spec.parameters);
}

function describeArguments(schema: JsonSchema): Record<string, unknown> {
  const properties = (schema.properties ?? {}) as Record<string, JsonSchema>;
  const required = new Set((schema.required ?? []) as string[]);
  return Object.fromEntries(
    Object.entries(properties).map(([name, property]) => {
      if ("default" in property) return [name, property.default];
      const typeName = jsonSchemaTypeName(property);
      return [name, required.has(name) ? typeName : `${typeName} | undefined`];
    }),
  );
}

/** A TypeScript-style type name for a JSON Schema, e.g. `string | Record<string, string>`. */
export function jsonSchemaTypeName(schema: JsonSchema): string {
  const union = (schema.anyOf ?? schema.oneOf) as JsonSchema[] | undefined;
  if (union) return union.map(jsonSchemaTypeName).join(" | ");
  if (Array.isArray(schema.enum))
    return schema.enum.map((value) => JSON.stringify(value)).join(" | ");
  const type = schema.type;
  if (Array.isArray(type)) return type.map((t) => jsonSchemaTypeName({ type: t })).join(" | ");
  switch (type) {
    case "array": {
      const items = schema.items as JsonSchema | undefined;
      return `Array<${items ? jsonSchemaTypeName(items) : "unknown"}>`;
    }
    case "object": {
      const additional = schema.additionalProperties;
      if (additional && typeof additional === "object" && !schema.properties) {
        return `Record<string, ${jsonSchemaTypeName(additional as JsonSchema)}>`;
      }
      return "object";
    }
    case undefined:
      return "unknown";
    default:
      return String(type);
  }
}
