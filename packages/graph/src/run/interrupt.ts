import { NodeInterrupt } from "../error/node-interrupt.js";

const resumeMarker = Symbol.for("framework.graph.resume");
const resumeByIdsMarker = Symbol.for("framework.graph.resume-by-ids");

/** The input of `graph.invoke` that answers an interrupted run; made by {@link resume}. */
export interface Resume<T = unknown> {
  readonly [resumeMarker]: true;
  /** What `context.interrupt(...)` returns in the node that asked. */
  readonly value: T;
}

/**
 * Answers the thread's first pending interrupt (the first asked):
 * `graph.invoke(resume(answer), config)` re-runs the interrupted node, where
 * `context.interrupt(...)` now returns `answer`; nodes whose questions it does not answer run
 * again and ask again (answer several at once with {@link resumeByIds}). Finished nodes do
 * not run again. The answer is saved in the thread's checkpoints, so it must be plain JSON;
 * it may be any JSON value, an object included: it is never read as a map of ids.
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

/** The input of `graph.invoke` that answers interrupts by id; made by {@link resumeByIds}. */
export interface ResumeByIds {
  readonly [resumeByIdsMarker]: true;
  /** Interrupt id (`getState().interrupts[i].id`) to the answer its question gets. */
  readonly answers: Readonly<Record<string, unknown>>;
}

/**
 * Answers pending interrupts by id, several at once: parallel nodes that each asked a
 * question all get their answer in one resume. Each key must be the `id` of one of the
 * thread's pending interrupts (`getState().interrupts`, or the `interrupt` events of
 * `stream`); the questions not named are asked again. A separate function rather than a
 * plain object passed to {@link resume}, whose answer may itself be any object: the intent is
 * in the call, never guessed from the keys. Answers must be plain JSON.
 *
 * @example
 * const { interrupts = [] } = await graph.getState(config); // two parallel nodes asked
 * await graph.invoke(resumeByIds({ [interrupts[0].id]: true, [interrupts[1].id]: "EUR" }), config);
 */
export function resumeByIds(answers: Readonly<Record<string, unknown>>): ResumeByIds {
  return { [resumeByIdsMarker]: true, answers: { ...answers } };
}

/** Whether a graph input is a {@link resumeByIds} answer. */
export function isResumeByIds(input: unknown): input is ResumeByIds {
  return typeof input === "object" && input !== null && resumeByIdsMarker in input;
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
