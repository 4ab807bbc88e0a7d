import type { ChatMessage } from "@framework/core";
import { z } from "zod";

/** A conversation message as an agent's thread keeps it: a chat message with a stable id. */
export type StoredMessage = ChatMessage & { readonly id: string };

const id = z.string().min(1);

/** Validates the messages an agent's thread keeps (the `messages` key of its state). */
export const storedMessageSchema: z.ZodType<StoredMessage> = z.discriminatedUnion("role", [
  z.object({ id, role: z.literal("system"), content: z.string() }),
  z.object({ id, role: z.literal("user"), content: z.string() }),
  z.object({
    id,
    role: z.literal("assistant"),
    content: z.string().nullable(),
    toolCalls: z
      .array(z.object({ id: z.string(), name: z.string(), arguments: z.string() }))
      .optional(),
  }),
  z.object({
    id,
    role: z.literal("tool"),
    toolCallId: z.string(),
    name: z.string(),
    content: z.string(),
  }),
]) as z.ZodType<StoredMessage>;

/**
 * A message as LangChain serialises it, which LangGraph's clients (`useStream`) read from a
 * thread's `messages`: `type` instead of `role`, snake_case fields, tool arguments parsed.
 */
export interface WireMessage {
  readonly type: "human" | "ai" | "tool" | "system";
  readonly id: string;
  readonly content: string;
  readonly tool_calls?: readonly {
    readonly id: string;
    readonly name: string;
    readonly args: unknown;
    readonly type: "tool_call";
  }[];
  readonly tool_call_id?: string;
  readonly name?: string;
}

/** The wire form of a stored message. */
export function toWireMessage(message: StoredMessage): WireMessage {
  switch (message.role) {
    case "system":
      return { type: "system", id: message.id, content: message.content };
    case "user":
      return { type: "human", id: message.id, content: message.content };
    case "tool":
      return {
        type: "tool",
        id: message.id,
        content: message.content,
        tool_call_id: message.toolCallId,
        name: message.name,
      };
    case "assistant":
      return {
        type: "ai",
        id: message.id,
        content: message.content ?? "",
        tool_calls: (message.toolCalls ?? []).map((call) => ({
          id: call.id,
          name: call.name,
          args: parsedArguments(call.arguments),
          type: "tool_call" as const,
        })),
      };
  }
}

/**
 * Tool arguments as a value: the model's JSON text parsed (left as text when it is not JSON,
 * as a model may write), an object as it is.
 */
export function parsedArguments(text: unknown): unknown {
  if (typeof text !== "string") return text;
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

const textPart = z.object({ type: z.literal("text"), text: z.string() });
const content = z.union([z.string(), z.array(z.union([textPart, z.looseObject({})]))]);

/**
 * What a client may send as a message: the chat form (`{ role, content }`) or LangChain's
 * (`{ type, content }`, as LangGraph's clients write it). Content may be text or a list of
 * parts, of which the text parts are kept.
 */
const inputMessageSchema = z.union([
  z.looseObject({
    role: z.enum(["user", "system", "assistant"]),
    content: content.nullable(),
    id: z.string().optional(),
  }),
  z.looseObject({
    type: z.enum(["human", "user", "system", "ai", "assistant"]),
    content,
    id: z.string().optional(),
  }),
]);

/** A client's message: its role, its text and its id if it gave one. */
export interface InputMessage {
  readonly role: "user" | "system" | "assistant";
  readonly content: string;
  readonly id?: string;
}

/** Schema of one input message, for request validation and the API description. */
export const inputMessage = inputMessageSchema.transform((message): InputMessage => {
  const role =
    "role" in message
      ? (message.role as InputMessage["role"])
      : roleOfType(message.type as Parameters<typeof roleOfType>[0]);
  const text = textOf(message.content);
  return message.id === undefined
    ? { role, content: text }
    : { role, content: text, id: message.id };
});

function roleOfType(type: "human" | "user" | "system" | "ai" | "assistant"): InputMessage["role"] {
  if (type === "human" || type === "user") return "user";
  if (type === "ai" || type === "assistant") return "assistant";
  return "system";
}

function textOf(value: z.output<typeof content> | null): string {
  if (value === null) return "";
  if (typeof value === "string") return value;
  return value
    .flatMap((part) => (part.type === "text" && typeof part.text === "string" ? [part.text] : []))
    .join("");
}
