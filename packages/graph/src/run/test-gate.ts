/** A promise a test opens by hand, to hold a node until another one has done something. */
export interface Gate {
  open(): void;
  /**
   * Resolves when the gate opens. If the scheduler under test deadlocks, it gives up after a
   * generous delay and records that, so the test fails on its order assertions instead of
   * hanging; no assertion ever depends on this delay.
   */
  wait(): Promise<void>;
  readonly gaveUp: boolean;
}

/** A closed {@link Gate}. */
export function createGate(giveUpAfterMs = 5_000): Gate {
  let open!: () => void;
  let gaveUp = false;
  const opened = new Promise<void>((resolve) => {
    open = resolve;
  });
  return {
    open,
    wait: () =>
      Promise.race([
        opened,
        new Promise<void>((resolve) => {
          const timer = setTimeout(() => {
            gaveUp = true;
            resolve();
          }, giveUpAfterMs);
          opened.then(() => clearTimeout(timer));
        }),
      ]),
    get gaveUp() {
      return gaveUp;
    },
  };
}
