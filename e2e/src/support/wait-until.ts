/**
 * Resolves once `condition` holds, checking every few milliseconds. The test's own timeout
 * bounds the wait; nothing is asserted about how long it took.
 */
export async function waitUntil(condition: () => boolean | Promise<boolean>): Promise<void> {
  while (!(await condition())) await new Promise((resolve) => setTimeout(resolve, 5));
}
