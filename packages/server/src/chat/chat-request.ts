import { z } from "@hono/zod-openapi";

const part = z.looseObject({ type: z.string() });

/** One message as the AI SDK's `useChat` sends it (a `UIMessage`). */
const uiMessage = z.looseObject({
  id: z.string(),
  role: z.enum(["system", "user", "assistant"]),
  parts: z.array(part),
});

/** The body `DefaultChatTransport` posts: the chat's id and its messages. */
export const chatRequestSchema = z
  .looseObject({
    id: z.string().min(1).max(256),
    messages: z.array(uiMessage).min(1),
    trigger: z.enum(["submit-message", "regenerate-message"]).optional(),
    messageId: z.string().optional(),
  })
  .openapi("ChatRequest");

/** What a chat request asks for: the next user message, or an answer to an approval. */
export type ChatTurn =
  | { readonly kind: "message"; readonly id: string; readonly text: string }
  | { readonly kind: "approval"; readonly approvalId: string; readonly approved: boolean };

interface ToolPart {
  type: string;
  state?: string;
  approval?: { id?: string; approved?: boolean };
}

/**
 * The turn a chat request stands for. The server keeps the conversation, so only the last
 * message counts: a user message is the next question; an assistant message whose tool part
 * holds an approval response (what `addToolApprovalResponse` writes) answers that approval.
 *
 * @returns `undefined` when the last message is neither.
 */
export function chatTurnOf(
  messages: z.output<typeof chatRequestSchema>["messages"],
): ChatTurn | undefined {
  const last = messages.at(-1);
  if (!last) return undefined;
  if (last.role === "user") {
    const text = last.parts
      .flatMap((p) => (p.type === "text" && typeof p.text === "string" ? [p.text] : []))
      .join("");
    return { kind: "message", id: last.id, text };
  }
  if (last.role !== "assistant") return undefined;
  for (const candidate of last.parts as ToolPart[]) {
    const isTool = candidate.type === "dynamic-tool" || candidate.type.startsWith("tool-");
    const { approval } = candidate;
    if (
      isTool &&
      candidate.state === "approval-responded" &&
      typeof approval?.id === "string" &&
      typeof approval.approved === "boolean"
    ) {
      return { kind: "approval", approvalId: approval.id, approved: approval.approved };
    }
  }
  return undefined;
}
