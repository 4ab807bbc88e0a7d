/** Values known to be frozen all the way down: walking them again is not needed. */
const deeplyFrozen = new WeakSet<object>();

function isFreezable(value: unknown): value is object {
  if (value === null || typeof value !== "object") return false;
  if (Array.isArray(value)) return true;
  const prototype = Object.getPrototypeOf(value);
  return prototype === Object.prototype || prototype === null;
}

/**
 * Freezes `value` and every plain object and array inside it, in place, and returns it.
 * Other objects (dates, maps, class instances, typed arrays) are left as they are: freezing
 * does not protect their contents and could break their own methods. A value frozen here
 * before is not walked again, so freezing a state that shares most of its values with the
 * previous one costs only what changed.
 */
export function deepFreeze<T>(value: T): T {
  if (!isFreezable(value) || deeplyFrozen.has(value)) return value;
  for (const key of Object.keys(value)) deepFreeze((value as Record<string, unknown>)[key]);
  Object.freeze(value);
  deeplyFrozen.add(value);
  return value;
}
