/** Below this depth a value is not walked: only a cyclic state gets there, and its saver says so. */
const MAX_DEPTH = 512;

/**
 * The length of `value`'s JSON text, without building it: strings count their UTF-16 code
 * units and no escapes, so it is exact for plain ASCII and an estimate otherwise. Checkpoints
 * weigh their records with it to place snapshots, which needs sizes, not text; a string
 * costs O(1) however long, where `JSON.stringify` would copy it.
 */
export function jsonBytes(value: unknown): number {
  return measure(value, 0);
}

function measure(value: unknown, depth: number): number {
  switch (typeof value) {
    case "string":
      return value.length + 2;
    case "number":
      return Number.isFinite(value) ? String(value).length : 4;
    case "boolean":
      return value ? 4 : 5;
    case "bigint":
      return String(value).length;
    case "object":
      if (value === null) return 4;
      if (depth >= MAX_DEPTH) return 0;
      return Array.isArray(value)
        ? measureArray(value, depth + 1)
        : measureObject(value, depth + 1);
    default:
      return 0;
  }
}

/** Whether JSON leaves a property with this value out (and writes `null` in an array). */
const omitted = (value: unknown): boolean =>
  value === undefined || typeof value === "function" || typeof value === "symbol";

function measureArray(array: readonly unknown[], depth: number): number {
  let bytes = 1 + Math.max(array.length, 1);
  for (const item of array) bytes += omitted(item) ? 4 : measure(item, depth);
  return bytes;
}

function measureObject(object: object, depth: number): number {
  const toJSON = (object as { toJSON?: unknown }).toJSON;
  if (typeof toJSON === "function") return measure(toJSON.call(object), depth);
  let bytes = 1;
  let members = 0;
  for (const key in object) {
    if (!Object.hasOwn(object, key)) continue;
    const member = (object as Record<string, unknown>)[key];
    if (omitted(member)) continue;
    bytes += key.length + 3 + measure(member, depth);
    members += 1;
  }
  return bytes + Math.max(members, 1);
}
