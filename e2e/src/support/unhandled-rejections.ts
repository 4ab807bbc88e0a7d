/** Rejections no one handled while watched; see {@link watchUnhandledRejections}. */
export interface UnhandledRejections {
  /** The reasons seen so far. */
  readonly reasons: unknown[];
  /** Stops watching. */
  stop(): void;
}

/**
 * Records every promise rejection that nobody handles from now on, so a suite can assert that
 * none of the faults it injects leaves one behind (vitest would report it, but only as a
 * failure of the whole run, not of the test that caused it).
 */
export function watchUnhandledRejections(): UnhandledRejections {
  const reasons: unknown[] = [];
  const listener = (reason: unknown) => {
    reasons.push(reason);
  };
  process.on("unhandledRejection", listener);
  return { reasons, stop: () => process.off("unhandledRejection", listener) };
}
