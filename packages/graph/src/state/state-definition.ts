import type { z } from "zod";
import { StateValidationError } from "../error/state-validation-error.js";
import { appendReducer } from "./append-reducer.js";
import { isReducer, type Reducer, type ReducerKey } from "./reducer.js";

/** A state value as the engine handles it, before typing: key to value. */
export type StateRecord = Readonly<Record<string, unknown>>;

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

/**
 * @internal Engine plumbing of runs and thread readers, not a stable API.
 *
 * A run's state as updates arrive: the values, plus entries added to `appendReducer` lists
 * and not yet copied into them. Appending copies the list, so n branches each appending a
 * result would copy O(n²) entries in all; held back until something reads the state
 * ({@link StateDefinition.read}), they are copied once. Only the definition changes it.
 */
export interface StateDraft {
  /** Frozen; the lists of `pending` keys lack the entries held there. */
  values: StateRecord;
  readonly pending: Map<string, unknown[]>;
}

/** @internal One node's update, validated against a draft and not merged yet. */
export interface StagedUpdate {
  /** What a checkpoint records, as {@link AppliedUpdate.writes}. */
  readonly writes: StateRecord;
  /** New values of last-value keys and of reducer keys merged whole. */
  readonly replaced: StateRecord;
  /** Validated entries for `appendReducer` lists. */
  readonly appended: ReadonlyMap<string, readonly unknown[]>;
}

function describeIssues(error: z.ZodError): string[] {
  return error.issues.map((issue) =>
    issue.path.length > 0 ? `${issue.path.map(String).join(".")}: ${issue.message}` : issue.message,
  );
}

// An array schema with nothing checked on the list as a whole (no length bound, no refine),
// so the list is valid exactly when each entry is: entries can be validated on their own.
function isEntryWiseArray(schema: z.ZodType): boolean {
  const { def } = schema._zod;
  return def.type === "array" && (def.checks?.length ?? 0) === 0;
}

function startsWith(list: readonly unknown[], prefix: readonly unknown[]): boolean {
  if (list.length < prefix.length) return false;
  for (let index = 0; index < prefix.length; index++) {
    if (list[index] !== prefix[index]) return false;
  }
  return true;
}

function isZodSchema(value: unknown): value is z.ZodType {
  return (
    typeof value === "object" &&
    value !== null &&
    typeof (value as { safeParse?: unknown }).safeParse === "function"
  );
}

/**
 * A typed shared state: its keys, their schemas and how writes combine. Built with
 * {@link defineState}; the graph uses it to validate and merge every node's update.
 */
export class StateDefinition<Shape extends StateShape = StateShape> {
  /** The shape given to {@link defineState}. */
  readonly shape: Shape;
  /** The state's keys, in declaration order. */
  readonly keys: readonly string[];
  // Only reducer() sets the reducer marker, so a marked entry is a full Reducer.
  readonly #entries = new Map<string, z.ZodType | Reducer>();
  // Lists this definition validated for a reducer key, with the schema and the length they
  // had then. An append-style reducer (the usual `messages`) keeps those entries as they are,
  // so only what it added needs parsing: a merge costs the update, not the whole history.
  readonly #validLists = new WeakMap<readonly unknown[], { schema: z.ZodType; length: number }>();

  constructor(shape: Shape) {
    for (const [key, entry] of Object.entries(shape)) {
      if (!isReducer(entry) && !isZodSchema(entry)) {
        throw new TypeError(`State key "${key}" must be a zod schema or reducer(...)`);
      }
      this.#entries.set(key, entry as z.ZodType | Reducer);
    }
    this.shape = shape;
    this.keys = Object.keys(shape);
  }

  /** True when concurrent writes to `key` are a conflict (the key keeps only the last value). */
  isLastValue(key: string): boolean {
    return !isReducer(this.#entries.get(key));
  }

  /** The state before anything is written: reducer defaults and schema defaults. */
  initialValues(): StateRecord {
    const values: Record<string, unknown> = {};
    for (const key of this.keys) {
      const entry = this.#entries.get(key)!;
      if (isReducer(entry)) {
        values[key] = entry.initial();
        continue;
      }
      const parsed = entry.safeParse(undefined);
      if (parsed.success && parsed.data !== undefined) values[key] = parsed.data;
    }
    return Object.freeze(values);
  }

  /**
   * Validates `update` (written by `node`) and merges it into `current`. A key set to
   * `undefined` counts as not written, because JSON checkpoints cannot hold `undefined`.
   *
   * @throws StateValidationError naming the node and key when the update is refused.
   */
  applyUpdate(current: StateRecord, update: unknown, node: string): AppliedUpdate {
    const draft = this.draft(current);
    const staged = this.stage(draft, update, node);
    this.commit(draft, staged);
    return { state: this.read(draft), writes: staged.writes };
  }

  /** @internal A draft holding `values`, for {@link stage}, {@link commit} and {@link read}. */
  draft(values: StateRecord): StateDraft {
    return { values, pending: new Map() };
  }

  /**
   * @internal Validates `update` (written by `node`) against the draft without merging it, so the
   * caller can still drop it (a router that throws, a conflicting write). A key set to
   * `undefined` counts as not written, because JSON checkpoints cannot hold `undefined`.
   *
   * @throws StateValidationError naming the node and key when the update is refused.
   */
  stage(draft: StateDraft, update: unknown, node: string): StagedUpdate {
    if (update === undefined || update === null) {
      return { writes: {}, replaced: {}, appended: new Map() };
    }
    if (typeof update !== "object" || Array.isArray(update)) {
      const got = Array.isArray(update) ? "an array" : typeof update;
      throw new StateValidationError({
        node,
        issues: [`expected an object of state keys (or nothing), got ${got}`],
      });
    }
    return this.#stage(draft, update as StateRecord, node, false);
  }

  /**
   * Stages `update` on the draft. Replaying (a checkpoint's writes) takes last-value keys as
   * they were stored, validated when written, and skips keys this state no longer has.
   */
  #stage(draft: StateDraft, update: StateRecord, node: string, replaying: boolean): StagedUpdate {
    const writes: Record<string, unknown> = {};
    const replaced: Record<string, unknown> = {};
    const appended = new Map<string, readonly unknown[]>();
    for (const [key, value] of Object.entries(update)) {
      if (value === undefined) continue;
      const entry = this.#entries.get(key);
      if (entry === undefined) {
        if (replaying) continue;
        throw new StateValidationError({
          node,
          key,
          issues: [`not a key of this state (keys: ${this.keys.join(", ")})`],
        });
      }
      if (!isReducer(entry)) {
        const parsed = replaying ? value : this.#parse(entry, value, node, key);
        replaced[key] = parsed;
        writes[key] = parsed;
        continue;
      }
      const entries = this.#appendable(entry, draft.values[key])
        ? entry.schema.safeParse(Array.isArray(value) ? value : [value])
        : undefined;
      if (entries?.success) {
        appended.set(key, entries.data as unknown[]);
      } else {
        // Also for refused entries: merged whole, the issues name their index in the list.
        replaced[key] = this.#reduce(entry, this.read(draft)[key], value, node, key);
      }
      writes[key] = value;
    }
    return { writes, replaced, appended };
  }

  /**
   * @internal Merges a staged update into the draft; appended entries wait there until {@link read}.
   * `merged`, what {@link readStaged} returned for this update with no commit since, is
   * adopted as it is instead of copying the lists again.
   */
  commit(draft: StateDraft, staged: StagedUpdate, merged?: StateRecord): void {
    if (merged) {
      // readStaged read the draft first, so nothing is held back.
      draft.values = merged;
      return;
    }
    if (Object.keys(staged.replaced).length > 0) {
      draft.values = Object.freeze({ ...draft.values, ...staged.replaced });
    }
    for (const [key, entries] of staged.appended) {
      const pending = draft.pending.get(key);
      if (pending) for (const item of entries) pending.push(item);
      else draft.pending.set(key, [...entries]);
    }
  }

  /** @internal The draft's state, with the entries held back copied into their lists once. */
  read(draft: StateDraft): StateRecord {
    if (draft.pending.size === 0) return draft.values;
    draft.values = this.#merged(draft.values, {}, draft.pending);
    draft.pending.clear();
    return draft.values;
  }

  /**
   * @internal The state the draft would read after committing `staged`, leaving the draft as it is:
   * what a router sees before the update is known to stand.
   */
  readStaged(draft: StateDraft, staged: StagedUpdate): StateRecord {
    return this.#merged(this.read(draft), staged.replaced, staged.appended);
  }

  #merged(
    values: StateRecord,
    replaced: StateRecord,
    appended: ReadonlyMap<string, readonly unknown[]>,
  ): StateRecord {
    const next: Record<string, unknown> = { ...values, ...replaced };
    for (const [key, entries] of appended) {
      const list = (values[key] as readonly unknown[]).concat(entries);
      this.#validLists.set(list, {
        schema: (this.#entries.get(key) as Reducer).schema,
        length: list.length,
      });
      next[key] = list;
    }
    return Object.freeze(next);
  }

  /**
   * Whether an update of `entry` may be held back as entries: an `appendReducer` list whose
   * current value this definition validated, under a schema checking entries one by one.
   */
  #appendable(entry: Reducer, current: unknown): boolean {
    if (entry.reduce !== appendReducer || !isEntryWiseArray(entry.schema)) return false;
    return this.#isValidList(entry.schema, current);
  }

  /** Whether `value` is a list this definition validated under `schema`, unchanged since. */
  #isValidList(schema: z.ZodType, value: unknown): value is readonly unknown[] {
    if (!Array.isArray(value)) return false;
    const known = this.#validLists.get(value);
    return known?.schema === schema && known.length === value.length;
  }

  /**
   * Re-applies writes recorded by {@link applyUpdate} (as stored in a checkpoint). Last-value
   * keys take the stored value as is: it was validated already, and parsing it again would
   * break schemas that transform.
   */
  replay(current: StateRecord, writes: StateRecord): StateRecord {
    const draft = this.draft(current);
    this.replayInto(draft, writes);
    return this.read(draft);
  }

  /**
   * @internal {@link replay} on a draft, so a reader folding many checkpoints copies each list once,
   * when it reads the state, instead of once per checkpoint.
   */
  replayInto(draft: StateDraft, writes: StateRecord): void {
    this.commit(draft, this.#stage(draft, writes, "(checkpoint)", true));
  }

  #reduce(entry: Reducer, current: unknown, value: unknown, node: string, key: string): unknown {
    let reduced: unknown;
    try {
      reduced = entry.reduce(current, value as never);
    } catch (cause) {
      const reason = cause instanceof Error ? cause.message : String(cause);
      throw new StateValidationError({ node, key, issues: [`reducer threw: ${reason}`], cause });
    }
    const { schema } = entry;
    if (!isEntryWiseArray(schema)) return this.#parse(schema, reduced, node, key);
    const list =
      this.#parseAppended(schema, current, reduced) ??
      (this.#parse(schema, reduced, node, key) as unknown[]);
    this.#validLists.set(list, { schema, length: list.length });
    return list;
  }

  /**
   * The validated list when `reduced` is `current`, a list validated here and unchanged since,
   * with entries added at its end, whose new entries are valid; else `undefined`, and the
   * caller parses the whole list (which also reports issues at their index in the list).
   */
  #parseAppended(schema: z.ZodType, current: unknown, reduced: unknown): unknown[] | undefined {
    if (!this.#isValidList(schema, current) || !Array.isArray(reduced)) return undefined;
    if (!startsWith(reduced, current)) return undefined;
    const added = schema.safeParse(reduced.slice(current.length));
    return added.success ? [...current, ...(added.data as unknown[])] : undefined;
  }

  #parse(schema: z.ZodType, value: unknown, node: string, key: string): unknown {
    const parsed = schema.safeParse(value);
    if (!parsed.success) {
      throw new StateValidationError({ node, key, issues: describeIssues(parsed.error) });
    }
    return parsed.data;
  }
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
