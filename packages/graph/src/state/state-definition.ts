import type { z } from "zod";
import { isReducer, type Reducer, type ReducerKey } from "./reducer.js";
import { StateEngine, type StateEntry, type StateRecord } from "./state-engine.js";

/** What `defineState` takes: per key, a zod schema (last value wins) or a {@link reducer}. */
export type StateShape = Record<string, z.ZodType | ReducerKey>;

// A key without a default starts absent, so its type admits `undefined`; `.default()` or a
// reducer make a key always present.
type PlainValue<S extends z.ZodType> =
  undefined extends z.input<S> ? z.output<S> : z.output<S> | undefined;

type ValueOf<E> =
  E extends Reducer<infer S, infer _U> ? z.output<S> : E extends z.ZodType ? PlainValue<E> : never;

type UpdateValueOf<E> =
  E extends Reducer<infer _S, infer U> ? U : E extends z.ZodType ? z.input<E> : never;

/** The full state of a shape: every key, reducer keys with their value type. */
export type StateValues<Shape extends StateShape> = {
  -readonly [K in keyof Shape]: ValueOf<Shape[K]>;
};

/** A node's update for a shape: any subset of keys; reducer keys take the reducer's update type. */
export type StateUpdate<Shape extends StateShape> = {
  [K in keyof Shape]?: UpdateValueOf<Shape[K]>;
};

/** The state type of a definition, e.g. `type TradingState = StateOf<typeof TradingState>`. */
export type StateOf<D> = D extends StateDefinition<infer Shape> ? StateValues<Shape> : never;

/** The update type of a definition: what a node may return. */
export type UpdateOf<D> = D extends StateDefinition<infer Shape> ? StateUpdate<Shape> : never;

/** The outcome of merging one update: the next state and what a checkpoint must record. */
export interface AppliedUpdate {
  /** The state after the update; a new frozen object, the previous one is untouched. */
  readonly state: StateRecord;
  /**
   * Per written key, what replaying needs: the validated value of a last-value key, or the
   * raw update of a reducer key (a few entries, not the whole grown list).
   */
  readonly writes: StateRecord;
}

function isZodSchema(value: unknown): value is z.ZodType {
  return (
    typeof value === "object" &&
    value !== null &&
    typeof (value as { safeParse?: unknown }).safeParse === "function"
  );
}

// Set once, by the class's static block: the only way to a definition's engine from outside.
let engineOfDefinition: (definition: StateDefinition) => StateEngine;

/**
 * A typed shared state: its keys, their schemas and how writes combine. Built with
 * {@link defineState}; the graph uses it to validate and merge every node's update.
 */
export class StateDefinition<Shape extends StateShape = StateShape> {
  /** The shape given to {@link defineState}. */
  readonly shape: Shape;
  /** The state's keys, in declaration order. */
  readonly keys: readonly string[];
  readonly #engine: StateEngine;

  static {
    engineOfDefinition = (definition) => definition.#engine;
  }

  /** @throws TypeError when a key of `shape` is neither a zod schema nor a `reducer(...)`. */
  constructor(shape: Shape) {
    const entries = new Map<string, StateEntry>();
    for (const [key, entry] of Object.entries(shape)) {
      if (!isReducer(entry) && !isZodSchema(entry)) {
        throw new TypeError(`State key "${key}" must be a zod schema or reducer(...)`);
      }
      entries.set(key, entry);
    }
    this.shape = shape;
    this.#engine = new StateEngine(entries);
    this.keys = this.#engine.keys;
  }

  /** True when concurrent writes to `key` are a conflict (the key keeps only the last value). */
  isLastValue(key: string): boolean {
    return this.#engine.isLastValue(key);
  }

  /** The state before anything is written: reducer defaults and schema defaults. */
  initialValues(): StateRecord {
    return this.#engine.initialValues();
  }

  /**
   * Validates `update` (written by `node`) and merges it into `current`, as a run merges a
   * node's update. A key set to `undefined` counts as not written, because JSON checkpoints
   * cannot hold `undefined`.
   *
   * @throws StateValidationError naming the node and key when the update is refused.
   */
  applyUpdate(current: StateRecord, update: unknown, node: string): AppliedUpdate {
    const engine = this.#engine;
    const draft = engine.draft(current);
    const staged = engine.stage(draft, update, node);
    engine.commit(draft, staged);
    return { state: engine.read(draft), writes: staged.writes };
  }
}

/**
 * The engine that validates and merges `definition`'s updates on drafts: how runs and thread
 * readers work with a state. Internal to the package (not exported from its entry points),
 * so the engine's methods stay off the public class.
 */
export function engineOf(definition: StateDefinition): StateEngine {
  return engineOfDefinition(definition);
}

/**
 * Defines a typed shared state. Each key is a zod schema (the last value written wins, and
 * two concurrent writers are a conflict) or a {@link reducer} (writes are combined).
 *
 * @example
 * const TradingState = defineState({
 *   messages: reducer(z.array(Message), appendReducer, () => []),
 *   equity_insight: z.string().optional(),
 * });
 * type TradingState = StateOf<typeof TradingState>;
 */
export function defineState<Shape extends StateShape>(shape: Shape): StateDefinition<Shape> {
  return new StateDefinition(shape);
}
