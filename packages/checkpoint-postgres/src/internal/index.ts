/**
 * Plumbing of `@framework/checkpoint-postgres`, shared with the other `@framework` packages
 * that keep tables beside the checkpoints: a saver's pool and its typed-error query.
 *
 * Unstable: anything here may change or go away in any release, minor or patch. Build on the
 * root export (`@framework/checkpoint-postgres`) instead; if you need something from here,
 * open an issue.
 *
 * @packageDocumentation
 */
export {
  internalsOf,
  type PostgresSaverInternals,
  type TransactionQuery,
} from "./saver-internals.js";
