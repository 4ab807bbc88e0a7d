/**
 * Sets one node's visit count in a plain record. Defined, not assigned, so a node named like
 * an `Object.prototype` member ("__proto__") gets an own entry instead of touching the
 * prototype. Records rather than Maps because snapshots copy them: a spread copies a record
 * of 10,000 counts many times faster than `Object.fromEntries` builds one from a Map.
 */
export function setVisits(visits: Record<string, number>, name: string, count: number): void {
  Object.defineProperty(visits, name, {
    value: count,
    writable: true,
    enumerable: true,
    configurable: true,
  });
}

/** The visit count of `name`, 0 when it never ran. */
export function visitsOf(visits: Readonly<Record<string, number>>, name: string): number {
  return Object.hasOwn(visits, name) ? visits[name]! : 0;
}
