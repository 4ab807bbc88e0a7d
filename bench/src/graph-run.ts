/** A graph run as both frameworks are timed: one invocation on a fresh thread. */
export type GraphRun = (threadId: string) => Promise<void>;

/** Throws when a run's result is not what the benchmark expects: a wrong run is no result. */
export function expectEqual(what: string, actual: unknown, expected: unknown): void {
  if (actual !== expected) throw new Error(`${what}: got ${String(actual)}, expected ${expected}`);
}

/** `count` node names: `<prefix>0`, `<prefix>1`, … */
export const nodeNames = (prefix: string, count: number) =>
  Array.from({ length: count }, (_, index) => `${prefix}${index}`);
