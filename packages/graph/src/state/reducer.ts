import type { z } from "zod";

const reducerMarker: unique symbol = Symbol.for("framework.graph.reducer");

/**
 * What a reducer accepts by default: a list-valued key accepts one entry or a list of
 * entries, any other key a value of its own type.
 */
export type DefaultReducerUpdate<V> = V extends readonly (infer E)[] ? E | V : V;

/**
 * What a state shape requires of a reducer entry. It leaves out `reduce` on purpose: a
 * constraint mentioning the update type would make TypeScript infer that type from the
 * shape around a `reducer(...)` call (as `never`) instead of from the reducer function.
 */
export interface ReducerKey {
  readonly [reducerMarker]: true;
  /**
   * Validates the key's value after every merge. For a plain list schema, entries a reducer
   * appended to an already validated list are checked on their own, not the whole list again.
   */
  readonly schema: z.ZodType;
}

/**
 * A state key that combines writes instead of keeping the last one. Concurrent writes to it
 * are never a conflict: they are folded in, one after the other, in the order the writers end.
 */
export interface Reducer<S extends z.ZodType = z.ZodType, U = DefaultReducerUpdate<z.output<S>>>
  extends ReducerKey {
  readonly schema: S;
  /** Returns the key's next value; must not mutate `current` (running nodes may hold it). */
  reduce(current: z.output<S>, update: U): z.output<S>;
  /** The key's value before anything was written. */
  initial(): z.output<S>;
}

/**
 * Declares a state key with a reducer. The update type defaults to "one entry or a list" for
 * list-valued keys; annotate `fn`'s second parameter to accept something else.
 *
 * @example
 * messages: reducer(z.array(Message), (current, update) => current.concat(update), () => []),
 */
export function reducer<S extends z.ZodType, U = DefaultReducerUpdate<z.output<S>>>(
  schema: S,
  fn: (current: z.output<S>, update: U) => z.output<S>,
  defaultFactory: () => z.output<S>,
): Reducer<S, U> {
  return {
    [reducerMarker]: true,
    schema,
    reduce: fn,
    initial: defaultFactory,
  };
}

/** True when a state-shape entry was declared with {@link reducer}. */
export function isReducer(value: unknown): value is Reducer {
  return typeof value === "object" && value !== null && reducerMarker in value;
}
