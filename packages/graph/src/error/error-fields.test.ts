import { FrameworkError, registerSecret } from "@framework/core";
import { describe, expect, it } from "vitest";
import { CheckpointConflictError } from "./checkpoint-conflict-error.js";
import { CheckpointNotFoundError } from "./checkpoint-not-found-error.js";
import { CorruptThreadError } from "./corrupt-thread-error.js";
import { GraphValidationError } from "./graph-validation-error.js";
import { InterruptNotFoundError } from "./interrupt-not-found-error.js";
import { NodeExecutionError } from "./node-execution-error.js";
import { NodeInterrupt } from "./node-interrupt.js";
import { NotInterruptedError } from "./not-interrupted-error.js";
import { StateConflictError } from "./state-conflict-error.js";
import { StateValidationError } from "./state-validation-error.js";
import { StepLimitError } from "./step-limit-error.js";
import { UnknownNodeError } from "./unknown-node-error.js";

// Thread ids, node names, state values and answers come from users and from models, so a
// secret can land in any field: each error class must pass its fields through FrameworkError's
// redaction, not assign them itself.
const secret = "sk-graph-error-fields-5123";
registerSecret(secret);
const planted = `leak-${secret}`;
const redacted = "leak-[REDACTED]";

const cases: readonly { error: FrameworkError; fields: Record<string, unknown> }[] = [
  {
    error: new CheckpointConflictError({ threadId: planted, seq: 3, latestSeq: 1 }),
    fields: { threadId: redacted, seq: 3, latestSeq: 1 },
  },
  {
    error: new CheckpointNotFoundError({ threadId: planted, checkpointId: planted }),
    fields: { threadId: redacted, checkpointId: redacted },
  },
  {
    error: new CorruptThreadError({ threadId: planted, seq: 2, reason: planted }),
    fields: { threadId: redacted, seq: 2 },
  },
  {
    error: new GraphValidationError({
      issues: [{ code: "unknown_node", nodes: [planted], message: planted }],
    }),
    fields: { issues: [{ code: "unknown_node", nodes: [redacted], message: redacted }] },
  },
  {
    error: new InterruptNotFoundError({
      threadId: planted,
      interruptIds: [planted],
      pendingIds: [planted],
    }),
    fields: { threadId: redacted, interruptIds: [redacted], pendingIds: [redacted] },
  },
  {
    error: new NodeExecutionError({ node: planted, phase: "router", cause: new Error("x") }),
    fields: { node: redacted, phase: "router" },
  },
  { error: new NodeInterrupt({ question: planted }), fields: { value: { question: redacted } } },
  {
    error: new NotInterruptedError({ threadId: planted, status: "done" }),
    fields: { threadId: redacted, status: "done" },
  },
  {
    error: new StateConflictError({ key: planted, nodes: ["a", planted] }),
    fields: { key: redacted, nodes: ["a", redacted] },
  },
  {
    error: new StateValidationError({ node: planted, key: planted, issues: [planted] }),
    fields: { node: redacted, key: redacted, issues: [redacted] },
  },
  {
    error: new StepLimitError({ limit: 5, state: { notes: [planted] }, next: [planted] }),
    fields: { limit: 5, state: { notes: [redacted] }, next: [redacted] },
  },
  {
    error: new UnknownNodeError({ node: planted, nodes: ["a", planted] }),
    fields: { node: redacted, nodes: ["a", redacted] },
  },
];

describe("the graph's errors", () => {
  for (const { error, fields } of cases) {
    it(`${error.name} redacts a registered secret in its fields and message`, () => {
      expect(FrameworkError.isInstance(error)).toBe(true);
      expect({ ...error }).toMatchObject(fields);
      for (const name of Object.keys(fields)) {
        expect(JSON.stringify((error as unknown as Record<string, unknown>)[name])).not.toContain(
          secret,
        );
      }
      expect(error.message).not.toContain(secret);
    });
  }

  it("leaves a field given as undefined undefined", () => {
    const error = new StateValidationError({ node: "n", issues: ["not an object"] });
    expect(error.key).toBeUndefined();
    expect(error.node).toBe("n");
  });
});
