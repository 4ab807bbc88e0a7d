import { NodeInterrupt } from "../error/node-interrupt.js";

const resumeMarker = Symbol.for("framework.graph.resume");

/** The input of `graph.invoke` that answers an interrupted run; made by {@link resume}. */
export interface Resume<T = unknown> {
  readonly [resumeMarker]: true;
  /** What `context.interrupt(...)` returns in the node that asked. */
  readonly value: T;
}

/**
 * Answers the thread's pending interrupt: `graph.invoke(resume(answer), config)` re-runs the
 * interrupted node, where `context.interrupt(...)` now returns `answer`. Finished nodes do not
 * run again. The answer is saved in the thread's checkpoints, so it must be plain JSON.
 *
 * @example
 * await graph.invoke({ question }, config); // a node called context.interrupt("Approve?")
 * await graph.invoke(resume(true), config);
 */
export function resume<T>(value: T): Resume<T> {
  return { [resumeMarker]: true, value };
}

/** Whether a graph input is a {@link resume} answer. */
export function isResume(input: unknown): input is Resume {
  return typeof input === "object" && input !== null && resumeMarker in input;
}

/**
 * The `interrupt` function of one node run. The node's answers so far are returned in order,
 * one per call, so a node re-run after a resume passes its earlier interrupts again with the
 * same answers; the first call past them pauses the run.
 */
export function interruptFunction(answers: readonly unknown[]): <R = unknown>(value: unknown) => R {
  let next = 0;
  return <R>(value: unknown): R => {
    if (next < answers.length) return answers[next++] as R;
    throw new NodeInterrupt(value);
  };
}
