import { getEventListeners } from "node:events";

/** How many timers currently keep the event loop alive. */
export function activeTimers(): number {
  return process.getActiveResourcesInfo().filter((kind) => kind === "Timeout").length;
}

/** How many `abort` listeners `signal` still has. */
export function abortListeners(signal: AbortSignal): number {
  return getEventListeners(signal, "abort").length;
}

/**
 * Lets callbacks already queued run (socket closes, cleared timers, settled promises), so that
 * what is still active afterwards was really left behind. Waits on turns of the event loop,
 * never on the clock.
 */
export async function settleEventLoop(): Promise<void> {
  for (let turn = 0; turn < 5; turn++) await new Promise((resolve) => setImmediate(resolve));
}
