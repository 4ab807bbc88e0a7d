import { createHash } from "node:crypto";
import type { StateSnapshot } from "@framework/graph";

/** A pending interrupt as the Agent Protocol shows it. */
export interface WireInterrupt {
  /** Stable while the interrupt waits: derived from its checkpoint and position. */
  id: string;
  /** What the node asked (for a tool approval: `{ type: "tool-approval", call }`). */
  value: unknown;
  when: "during";
  resumable: boolean;
  /** The node that asked. */
  ns: string[];
}

/** The interrupts a thread waits on at `snapshot`, in the order they are answered. */
export function wireInterrupts(snapshot: StateSnapshot): WireInterrupt[] {
  if (snapshot.status !== "interrupted" || !snapshot.checkpoint) return [];
  const checkpointId = snapshot.checkpoint.id;
  return (snapshot.interrupts ?? []).map((interrupt, index) => ({
    id: createHash("sha256").update(`${checkpointId}\0${index}`).digest("hex").slice(0, 32),
    value: interrupt.value,
    when: "during",
    resumable: true,
    ns: [interrupt.node],
  }));
}

/** The protocol's `interrupts` of a thread: its pending interrupts by the node that asked. */
export function interruptsByNode(
  interrupts: readonly WireInterrupt[],
): Record<string, WireInterrupt[]> {
  const byNode: Record<string, WireInterrupt[]> = {};
  for (const interrupt of interrupts) {
    const node = interrupt.ns[0] ?? "";
    byNode[node] = [...(byNode[node] ?? []), interrupt];
  }
  return byNode;
}
