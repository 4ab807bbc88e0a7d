import { randomUUID } from "node:crypto";

/**
 * A name no other test uses, in this file, a parallel one or an earlier run: `t_<label>_`
 * and 12 hex digits, for a schema or a queue of the test's own. With a `label` of lowercase
 * letters, digits and `_`, it is a valid unquoted SQL identifier.
 */
export function uniqueName(label: string): string {
  return `t_${label}_${randomUUID().replaceAll("-", "").slice(0, 12)}`;
}
