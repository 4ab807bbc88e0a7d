import type { z } from "zod";
import { StateValidationError } from "../error/state-validation-error.js";
import { appendReducer } from "./append-reducer.js";
import { isReducer, type Reducer } from "./reducer.js";

/** A state value as the engine handles it, before typing: key to value. */
export type StateRecord = Readonly<Record<string, unknown>>;

/** A state key as the engine knows it: a schema (last value wins) or a reducer. */
export type StateEntry = z.ZodType | Reducer;

/**
 * A run's state as updates arrive: the values, plus entries added to `appendReducer` lists
 * and not yet copied into them. Appending copies the list, so n branches each appending a
 * result would copy O(n²) entries in all; held back until something reads the state
 * ({@link StateEngine.read}), they are copied once. Only the engine changes it.
 */
export interface StateDraft {
  /** Frozen; the lists of `pending` keys lack the entries held there. */
  values: StateRecord;
  readonly pending: Map<string, unknown[]>;
}

/** One node's update, validated against a draft and not merged yet. */
export interface StagedUpdate {
  /**
   * What a checkpoint records, per written key: the validated value of a last-value key, or
   * the raw update of a reducer key (a few entries, not the whole grown list).
   */
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

/**
 * How a state definition's updates are validated and merged, as runs and thread readers do
 * it: on a {@link StateDraft}, an update is staged (validated, still droppable), then
 * committed, and entries appended to lists are copied in once, when the state is read.
 * Internal to the package: a `StateDefinition` owns one, reached with `engineOf`.
 */
export class StateEngine {
  /** The state's keys, in declaration order. */
  readonly keys: readonly string[];
  // Only reducer() sets the reducer marker, so a marked entry is a full Reducer.
  readonly #entries: ReadonlyMap<string, StateEntry>;
  // Lists this engine validated for a reducer key, with the schema and the length they
  // had then. An append-style reducer (the usual `messages`) keeps those entries as they are,
  // so only what it added needs parsing: a merge costs the update, not the whole history.
  readonly #validLists = new WeakMap<readonly unknown[], { schema: z.ZodType; length: number }>();

  constructor(entries: ReadonlyMap<string, StateEntry>) {
    this.#entries = entries;
    this.keys = [...entries.keys()];
  }

  /** True when concurrent writes to `key` are a conflict (the key keeps only the last value). */
  isLastValue(key: string): boolean {
    return !isReducer(this.#entries.get(key));
  }

  /** The state before anything is written: reducer defaults and schema defaults. */
  initialValues(): StateRecord {
    const values: Record<string, unknown> = {};
    for (const [key, entry] of this.#entries) {
      if (isReducer(entry)) {
        values[key] = entry.initial();
        continue;
      }
      const parsed = entry.safeParse(undefined);
      if (parsed.success && parsed.data !== undefined) values[key] = parsed.data;
    }
    return Object.freeze(values);
  }

  /** A draft holding `values`, for {@link stage}, {@link commit} and {@link read}. */
  draft(values: StateRecord): StateDraft {
    return { values, pending: new Map() };
  }

  /**
   * Validates `update` (written by `node`) against the draft without merging it, so the
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
   * Merges a staged update into the draft; appended entries wait there until {@link read}.
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

  /** The draft's state, with the entries held back copied into their lists once. */
  read(draft: StateDraft): StateRecord {
    if (draft.pending.size === 0) return draft.values;
    draft.values = this.#merged(draft.values, {}, draft.pending);
    draft.pending.clear();
    return draft.values;
  }

  /**
   * The state the draft would read after committing `staged`, leaving the draft as it is:
   * what a router sees before the update is known to stand.
   */
  readStaged(draft: StateDraft, staged: StagedUpdate): StateRecord {
    return this.#merged(this.read(draft), staged.replaced, staged.appended);
  }

  /**
   * Re-applies writes a checkpoint recorded ({@link StagedUpdate.writes}) to the draft, so a
   * reader folding many checkpoints copies each list once, when it reads the state. Last-value
   * keys take the stored value as is: it was validated already, and parsing it again would
   * break schemas that transform. Keys this state no longer has are skipped.
   */
  replay(draft: StateDraft, writes: StateRecord): void {
    this.commit(draft, this.#stage(draft, writes, "(checkpoint)", true));
  }

  /** Stages `update` on the draft; replaying takes last-value keys as they were stored. */
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
   * current value this engine validated, under a schema checking entries one by one.
   */
  #appendable(entry: Reducer, current: unknown): boolean {
    if (entry.reduce !== appendReducer || !isEntryWiseArray(entry.schema)) return false;
    return this.#isValidList(entry.schema, current);
  }

  /** Whether `value` is a list this engine validated under `schema`, unchanged since. */
  #isValidList(schema: z.ZodType, value: unknown): value is readonly unknown[] {
    if (!Array.isArray(value)) return false;
    const known = this.#validLists.get(value);
    return known?.schema === schema && known.length === value.length;
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
