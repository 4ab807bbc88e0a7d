import type { AgentEvent } from "@framework/core";
import type { GraphEvent } from "@framework/graph";
import { parsedArguments } from "../assistant/wire-message.js";
import type { RunEventRenderer } from "../http/run-event-stream.js";
import type { RunEventRecord } from "../store/server-store.js";

/** A chunk of the AI SDK's UI message stream (v1), as its client parses it. */
export type UIMessageChunk = { readonly type: string } & Readonly<Record<string, unknown>>;

/** Options of {@link uiMessageRenderer}. */
export interface UIMessageRendering {
  /** The id of the assistant message the turn writes. */
  readonly messageId: string;
  /** Tool calls the user declined in this turn's request: their outputs are denials. */
  readonly declinedToolCallIds: ReadonlySet<string>;
  /**
   * Tool calls the client's message already shows (a turn continuing after an approval): the
   * run asks for them again, but the client gets only their outputs, on the parts it has.
   */
  readonly shownToolCallIds: ReadonlySet<string>;
}

/** A UI stream line: `data: <json>`, as the AI SDK's `parseJsonEventStream` reads it. */
function line(chunk: UIMessageChunk): string {
  return `data: ${JSON.stringify(chunk)}\n\n`;
}

/**
 * Writes a run's logged typed events (stream mode `events`) as the AI SDK's UI message
 * stream: `start`, then per agent step `start-step`, text as `text-start`/`text-delta`/
 * `text-end` and the model's reasoning as `reasoning-start`/`reasoning-delta`/
 * `reasoning-end` (reasoning parts of the message), each tool call as `tool-input-available`
 * (a dynamic tool: the client needs no definition of it) and its result as
 * `tool-output-available`, `tool-output-error` or `tool-output-denied`, `finish-step`; a tool
 * waiting for approval as `tool-approval-request` (its `approvalId` is the tool call's id); a
 * failure as `error`; and `finish`, `[DONE]` at the end.
 */
export function uiMessageRenderer({
  messageId,
  declinedToolCallIds,
  shownToolCallIds,
}: UIMessageRendering): RunEventRenderer {
  let started = false;
  let inStep = false;
  // The open text or reasoning part: a delta of the other kind, a tool call or a step's end
  // closes it, as the AI SDK's own streamText writes them.
  let open: { type: "text" | "reasoning"; id: string } | undefined;
  let parts = 0;
  const chunks: UIMessageChunk[] = [];

  const closePart = () => {
    if (open === undefined) return;
    chunks.push({ type: `${open.type}-end`, id: open.id });
    open = undefined;
  };
  const closeStep = () => {
    closePart();
    if (inStep) chunks.push({ type: "finish-step" });
    inStep = false;
  };
  const openStep = () => {
    if (!inStep) chunks.push({ type: "start-step" });
    inStep = true;
  };
  const delta = (type: "text" | "reasoning", text: string) => {
    openStep();
    if (open?.type !== type) {
      closePart();
      parts += 1;
      open = { type, id: `${messageId}-${type}-${parts}` };
      chunks.push({ type: `${type}-start`, id: open.id });
    }
    chunks.push({ type: `${type}-delta`, id: open.id, delta: text });
  };
  const start = () => {
    if (!started) chunks.push({ type: "start", messageId });
    started = true;
  };

  const agentEvent = (event: AgentEvent) => {
    switch (event.type) {
      case "step-start":
        closeStep();
        openStep();
        break;
      case "text-delta":
      case "reasoning-delta":
        delta(event.type === "text-delta" ? "text" : "reasoning", event.text);
        break;
      case "tool-call":
        openStep();
        closePart();
        if (shownToolCallIds.has(event.toolCallId)) break;
        chunks.push({
          type: "tool-input-available",
          toolCallId: event.toolCallId,
          toolName: event.toolName,
          input: parsedArguments(event.arguments) ?? {},
          dynamic: true,
        });
        break;
      case "tool-result":
        closePart();
        if (declinedToolCallIds.has(event.toolCallId)) {
          chunks.push({ type: "tool-output-denied", toolCallId: event.toolCallId });
        } else if (event.isError) {
          chunks.push({
            type: "tool-output-error",
            toolCallId: event.toolCallId,
            errorText: event.output,
            dynamic: true,
          });
        } else {
          chunks.push({
            type: "tool-output-available",
            toolCallId: event.toolCallId,
            output: event.output,
            dynamic: true,
          });
        }
        break;
      case "step-finish":
        closeStep();
        break;
      default:
        break;
    }
  };

  return {
    render(record: RunEventRecord): string {
      start();
      if (record.event === "error") {
        closeStep();
        const { message } = record.data as { message?: string };
        chunks.push({ type: "error", errorText: message ?? "The run failed" });
      } else if (record.event === "events") {
        const event = record.data as GraphEvent;
        if (event.type === "agent") agentEvent(event.event);
        if (event.type === "interrupt") {
          const value = event.value as { type?: string; call?: { toolCallId?: string } } | null;
          const toolCallId = value?.type === "tool-approval" ? value.call?.toolCallId : undefined;
          if (toolCallId !== undefined) {
            closePart();
            chunks.push({ type: "tool-approval-request", approvalId: toolCallId, toolCallId });
          }
        }
      }
      return chunks.splice(0).map(line).join("");
    },
    end(): string {
      start();
      closeStep();
      chunks.push({ type: "finish" });
      return `${chunks.splice(0).map(line).join("")}data: [DONE]\n\n`;
    },
  };
}
