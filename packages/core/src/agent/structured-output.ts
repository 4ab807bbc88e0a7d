import { z } from "zod";
import { schemaIssues } from "../error/schema-issues.js";
import {
  type ChatMessage,
  type ChatModel,
  emptyUsage,
  type JsonSchema,
  type ResponseFormat,
  type Usage,
} from "../model/chat-model.js";
import type { OutputIssue } from "./output-validation-error.js";

/** Any zod schema an agent's answer can be validated against. */
export type OutputSchema = z.ZodType;

/** The JSON answer format sent to the model for `schema`. */
export function outputResponseFormat(schema: OutputSchema): ResponseFormat {
  const { $schema: _, ...json } = z.toJSONSchema(schema, {
    io: "output",
    unrepresentable: "any",
  }) as JsonSchema;
  return { type: "json", name: "output", schema: json, strict: fitsStrictMode(json) };
}

/**
 * OpenAI's strict mode accepts only objects whose every property is required; a schema with
 * optional fields is sent non-strict rather than rejected by the provider.
 */
function fitsStrictMode(schema: unknown): boolean {
  if (Array.isArray(schema)) return schema.every(fitsStrictMode);
  if (typeof schema !== "object" || schema === null) return true;
  const record = schema as JsonSchema;
  if (record.type === "object" && typeof record.properties === "object" && record.properties) {
    const required = new Set((record.required ?? []) as string[]);
    if (!Object.keys(record.properties).every((key) => required.has(key))) return false;
  }
  return Object.values(record).every(fitsStrictMode);
}

type Validation<T> = { ok: true; value: T } | { ok: false; issues: OutputIssue[] };

/** Parses and validates an answer; models often wrap JSON in a Markdown code fence. */
async function validate<S extends OutputSchema>(
  schema: S,
  text: string,
): Promise<Validation<z.output<S>>> {
  let json: unknown;
  try {
    json = JSON.parse(unfenced(text));
  } catch {
    return { ok: false, issues: [{ path: "(output)", message: "The answer is not valid JSON." }] };
  }
  const result = await schema.safeParseAsync(json);
  return result.success
    ? { ok: true, value: result.data }
    : { ok: false, issues: schemaIssues(result.error.issues, "(output)") };
}

function unfenced(text: string): string {
  const fenced = /^\s*```[a-zA-Z]*\s*\n([\s\S]*?)\n?```\s*$/.exec(text);
  return fenced?.[1] ?? text;
}

/** What {@link structuredAnswer} needs from the finished run. */
export interface StructuredAnswerInput<S extends OutputSchema> {
  schema: S;
  format: ResponseFormat;
  model: ChatModel;
  /** The conversation, ending with the model's answer; extended in place by a retry. */
  messages: ChatMessage[];
  /** The model's answer text. */
  content: string;
  signal: AbortSignal;
}

/**
 * The final answer, validated: its typed `output`, or the `issues` of an answer that failed
 * twice. `content` is the answer's text and `usage` the retry's tokens.
 */
export type StructuredAnswer<T> = { content: string; usage: Usage } & (
  | { ok: true; output: T }
  | { ok: false; issues: OutputIssue[] }
);

/**
 * Validates the run's final answer. An answer that fails is sent back once with the problems;
 * the answer to that retry is the final one, valid or not: the caller, which holds the whole
 * run, reports a failure.
 */
export async function structuredAnswer<S extends OutputSchema>(
  input: StructuredAnswerInput<S>,
): Promise<StructuredAnswer<z.output<S>>> {
  const first = await validate(input.schema, input.content);
  if (first.ok) {
    return { ok: true, output: first.value, content: input.content, usage: emptyUsage() };
  }
  input.messages.push({ role: "user", content: retryRequest(first.issues, input.format) });
  const response = await input.model.generate({
    messages: [...input.messages],
    responseFormat: input.format,
    signal: input.signal,
  });
  const content = response.message.content ?? "";
  input.messages.push({ role: "assistant", content });
  const second = await validate(input.schema, content);
  return second.ok
    ? { ok: true, output: second.value, content, usage: response.usage }
    : { ok: false, issues: second.issues, content, usage: response.usage };
}

// The schema goes with the issues: a provider that ignores response_format without refusing it
// has shown the model no schema so far.
function retryRequest(issues: readonly OutputIssue[], format: ResponseFormat): string {
  const list = issues.map((issue) => `- ${issue.path}: ${issue.message}`).join("\n");
  return `Your answer does not match the required JSON Schema:\n${list}\nReply again with only the corrected JSON value, matching this JSON Schema:\n${JSON.stringify(format.schema)}`;
}
