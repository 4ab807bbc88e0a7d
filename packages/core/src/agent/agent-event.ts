import type { ModelFinishReason, Usage } from "../model/chat-model.js";
import type { AgentResult } from "./agent-result.js";

/**
 * What an agent run reports while it works, from `Agent.stream` or `invoke`'s `onEvent`.
 * A discriminated union on `type`; a run emits, per step, `step-start`, any `retry`,
 * `reasoning-delta` and `text-delta` events of its model call, a `tool-call` and
 * `tool-result` for each tool it asks for, then `step-finish`; it ends with exactly one
 * `finish` or `error`.
 */
export type AgentEvent =
  /** A step starts: one model call and the tool calls it asks for. `step` counts from 1. */
  | { type: "step-start"; step: number }
  /**
   * A piece of the answer text as the model streams it. In JSON tool-calling mode a reply is
   * held until it is known not to be a tool call, so a tool call never shows up as text.
   */
  | { type: "text-delta"; text: string }
  /**
   * A piece of the model's reasoning ("thinking") as the model streams it, when its provider
   * sends reasoning apart from the answer. Never part of the answer text or the conversation.
   */
  | { type: "reasoning-delta"; text: string }
  /** The model asked for a tool; emitted before the tool runs. */
  | { type: "tool-call"; toolCallId: string; toolName: string; arguments: unknown }
  /** A tool call finished; `output` is the text the model receives. */
  | {
      type: "tool-result";
      toolCallId: string;
      toolName: string;
      output: string;
      isError: boolean;
      durationMs: number;
    }
  /** A model request failed and is retried after `delayMs`; `status` is its HTTP status. */
  | { type: "retry"; attempt: number; delayMs: number; status?: number }
  /** A step finished (after its tool results), with its model call's usage and finish reason. */
  | { type: "step-finish"; step: number; usage: Usage; finishReason: ModelFinishReason }
  /** The run ended with an answer. */
  | { type: "finish"; result: AgentResult }
  /** The run failed; `invoke` rejects with the same error, `stream` ends after this event. */
  | { type: "error"; error: unknown };

/** Receives the events of a run, in order. */
export type AgentEventHandler = (event: AgentEvent) => void;
