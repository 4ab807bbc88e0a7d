/**
 * The server's answers as the studio reads them: LangGraph's Agent Protocol (snake_case, as
 * it crosses the wire) and the studio's own routes (`/interrupts`, `/traces`).
 */

import type { AgentEvent as CoreAgentEvent } from "@framework/core";
import type { GraphEvent as CoreGraphEvent } from "@framework/graph";

export type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
export type JsonObject = { [key: string]: Json };

/** `T` as it arrives in JSON: what the sender typed `unknown` is some JSON value. */
type AsJson<T> = unknown extends T
  ? Json
  : T extends Json
    ? T
    : T extends object
      ? { [K in keyof T]: AsJson<T[K]> }
      : T;

export interface Assistant {
  assistant_id: string;
  graph_id: string;
  name: string;
  description: string | null;
  metadata: { kind?: "agent" | "graph"; [key: string]: unknown };
}

export interface GraphDrawing {
  nodes: { id: string; name: string }[];
  edges: { source: string; target: string; conditional?: boolean; data?: unknown }[];
}

export interface Interrupt {
  id: string;
  value: Json;
  ns: string[];
}

export type ThreadStatus = "idle" | "busy" | "interrupted" | "error";

export interface Thread {
  thread_id: string;
  created_at: string;
  updated_at: string;
  metadata: JsonObject;
  status: ThreadStatus;
  values: JsonObject | null;
  interrupts: Record<string, Interrupt[]>;
}

export interface CheckpointRef {
  thread_id: string;
  checkpoint_id: string | null;
}

export interface ThreadState {
  values: JsonObject;
  next: string[];
  checkpoint: CheckpointRef;
  metadata: JsonObject;
  created_at: string | null;
  parent_checkpoint: CheckpointRef | null;
  interrupts: Interrupt[];
}

export type RunStatus = "pending" | "running" | "success" | "error" | "timeout" | "interrupted";

export interface Run {
  run_id: string;
  thread_id: string;
  assistant_id: string;
  created_at: string;
  status: RunStatus;
}

export interface PendingInterrupts {
  thread_id: string;
  assistant_id: string;
  graph_id: string;
  updated_at: string;
  metadata: JsonObject;
  interrupts: Interrupt[];
}

export interface Span {
  span_id: string;
  parent_span_id: string | null;
  trace_id: string;
  name: string;
  start_time: number;
  end_time: number | null;
  status: "unset" | "ok" | "error";
  status_message: string | null;
  attributes: Record<string, string | number | boolean | (string | number | boolean | null)[]>;
}

export interface RunTrace {
  recording: boolean;
  run_id: string;
  thread_id: string;
  spans: Span[];
  dropped_spans: number;
}

export interface TracedRun {
  run_id: string;
  thread_id: string;
  assistant_id: string;
  status: RunStatus;
  start_time: number;
  duration_ms: number | null;
  span_count: number;
}

/**
 * An agent's event as the `events` stream mode sends it: core's `AgentEvent` as JSON, a
 * failure as its class and message.
 */
export type AgentEvent =
  | AsJson<Exclude<CoreAgentEvent, { type: "error" }>>
  | { type: "error"; error: { type: string; message: string } };

/** A graph's event as the `events` stream mode sends it: graph's `GraphEvent` as JSON. */
export type GraphEvent =
  | AsJson<Exclude<CoreGraphEvent<JsonObject, JsonObject>, { type: "agent" }>>
  | { type: "agent"; node: string; event: AgentEvent };

/** One server-sent event of a run stream. */
export type RunStreamEvent =
  | { event: "metadata"; data: { run_id: string; attempt: number } }
  | { event: "events"; data: GraphEvent }
  | { event: "values"; data: JsonObject }
  | { event: "error"; data: { error: string; message: string } };
