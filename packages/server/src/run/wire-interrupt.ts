import type { StateSnapshot } from "@framework/graph";

/** A pending interrupt as the Agent Protocol shows it. */
export interface WireInterrupt {
  /** The graph's id of the question (`resumeByIds` answers it by it). */
  id: string;
  /** What the node asked (for a tool approval: `{ type: "tool-approval", call }`). */
  value: unknown;
  when: "during";
  resumable: boolean;
  /** The node that asked. */
  ns: string[];
}

/** The interrupts a thread waits on at `snapshot`, in the order they were asked. */
export function wireInterrupts(snapshot: StateSnapshot): WireInterrupt[] {
  return (snapshot.interrupts ?? []).map((interrupt) => ({
    id: interrupt.id,
    value: interrupt.value,
    when: "during",
    resumable: true,
    ns: [interrupt.node],
  }));
}

/**
 * Whether `command.resume` answers interrupts by id: an object whose keys are all ids of
 * `pending` interrupts (as LangGraph reads such a map). Anything else, an empty object
 * included, is one answer, to the first interrupt.
 */
export function isAnswerMap(resume: unknown, pending: readonly WireInterrupt[]): boolean {
  if (typeof resume !== "object" || resume === null || Array.isArray(resume)) return false;
  const keys = Object.keys(resume);
  const ids = new Set(pending.map((interrupt) => interrupt.id));
  return keys.length > 0 && keys.every((key) => ids.has(key));
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
