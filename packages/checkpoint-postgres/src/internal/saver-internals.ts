import { ConfigurationError } from "@framework/core";
import type pg from "pg";

/**
 * What a `PostgresSaver` lends the packages that keep tables beside its checkpoints
 * (`@framework/crew-queue`'s runs): its pool and its typed-error query, neither of which is
 * part of the saver's public surface.
 */
export interface PostgresSaverInternals {
  /** The saver's pool, for a dedicated connection (a `LISTEN`). */
  readonly pool: pg.Pool;
  /**
   * Runs one statement on the saver's pool once its schema is set up, failing with this
   * package's typed errors (the password never shown).
   *
   * @param operation names the statement in error messages, e.g. `"claim run"`.
   */
  query<R extends pg.QueryResultRow = pg.QueryResultRow>(
    operation: string,
    text: string,
    values?: unknown[],
  ): Promise<R[]>;
  /**
   * Runs `work` in one transaction on a connection of the saver's pool, once its schema is set
   * up: committed when `work` resolves, rolled back when it throws. Its `query` fails with this
   * package's typed errors, as {@link PostgresSaverInternals.query} does.
   *
   * @param operation names the transaction in error messages, e.g. `"insert run"`.
   */
  transaction<T>(operation: string, work: (query: TransactionQuery) => Promise<T>): Promise<T>;
}

/** One statement inside {@link PostgresSaverInternals.transaction}. */
export type TransactionQuery = <R extends pg.QueryResultRow = pg.QueryResultRow>(
  text: string,
  values?: unknown[],
) => Promise<R[]>;

// Keyed by the saver, so what it lends is reachable only through this module and goes with it.
const lent = new WeakMap<object, PostgresSaverInternals>();

/** Called by each saver's constructor. */
export function lendInternals(saver: object, internals: PostgresSaverInternals): void {
  lent.set(saver, internals);
}

/**
 * The pool and query of `saver`.
 *
 * @throws ConfigurationError when `saver` is not a `PostgresSaver` of this copy of the
 *   package (two copies installed side by side).
 */
export function internalsOf(saver: object): PostgresSaverInternals {
  const internals = lent.get(saver);
  if (internals === undefined) {
    throw new ConfigurationError({
      setting: "checkpointer",
      message:
        "Expected a PostgresSaver of this copy of @framework/checkpoint-postgres: two copies are installed, keep one",
    });
  }
  return internals;
}
