/**
 * The reducer of append-only lists such as `messages`: the existing list plus the new entry,
 * or plus every entry when the update is a list. An array update is always read as a list of
 * entries, so a list whose entries are themselves arrays must be appended as `[entry]`.
 *
 * @example
 * messages: reducer(z.array(Message), appendReducer, () => []),
 */
export function appendReducer<T>(current: readonly T[], update: T | readonly T[]): T[] {
  return Array.isArray(update) ? [...current, ...update] : [...current, update as T];
}
