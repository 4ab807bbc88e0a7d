import { createHash } from "node:crypto";
import type { PendingInterrupt, StoredCheckpoint } from "./checkpoint.js";

/** Interrupt ids are this many hex digits of a SHA-256, as servers have shown them. */
const ID_LENGTH = 32;

/**
 * The id of the `index`-th question (from 0) a node asks in one visit. The same question
 * asked again, when its node runs again after a resume answered another node, gets the same
 * id; JSON keeps the parts apart whatever characters they hold.
 */
export function interruptId(
  threadId: string,
  runId: string,
  node: string,
  visit: number,
  index: number,
): string {
  return createHash("sha256")
    .update(JSON.stringify(["interrupt", threadId, runId, node, visit, index]))
    .digest("hex")
    .slice(0, ID_LENGTH);
}

/**
 * The id of an interrupt stored without one (written before ids were stored): derived from
 * its checkpoint's id and its position there, as `@framework/server` derived the ids it
 * showed, so those keep answering the same questions.
 */
function storedWithoutId(checkpointId: string, index: number): string {
  return createHash("sha256").update(`${checkpointId}\0${index}`).digest("hex").slice(0, ID_LENGTH);
}

/** The questions `checkpoint` waits on, each with its id. */
export function interruptsOf(checkpoint: StoredCheckpoint): PendingInterrupt[] {
  return (checkpoint.interrupts ?? []).map((interrupt, index) =>
    interrupt.id === undefined
      ? { id: storedWithoutId(checkpoint.id, index), node: interrupt.node, value: interrupt.value }
      : (interrupt as PendingInterrupt),
  );
}
