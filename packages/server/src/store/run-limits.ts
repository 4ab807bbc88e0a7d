import type { RunCounts, RunInsertion, RunLimits } from "./server-store.js";

/** The first of `limits` an owner with `counts` is at, if any: a new run would exceed it. */
export function exceededLimit(
  limits: RunLimits,
  { pending, running }: RunCounts,
): RunInsertion["overLimit"] {
  if (limits.maxActive !== undefined && pending + running >= limits.maxActive) {
    return { limit: "active", current: pending + running };
  }
  if (limits.maxPending !== undefined && pending >= limits.maxPending) {
    return { limit: "pending", current: pending };
  }
  return undefined;
}
