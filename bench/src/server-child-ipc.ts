// What a server child of item 11 and the bench say to each other over the child's IPC channel.
// Imported by the children (bundled into each) and, for its types, by the bench.

/** A server child's memory, in megabytes. */
export interface ChildMemory {
  /** Resident set size now. */
  readonly rssMb: number;
  /** Its peak so far (`getrusage`). */
  readonly peakRssMb: number;
  /** Heap in use now. */
  readonly heapMb: number;
}

/** What the bench asks a server child. */
export type ToServerChild = {
  readonly type: "memory";
  /** Collect garbage first, so the heap is what is still held. */
  readonly collect: boolean;
};

/** What a server child tells the bench. */
export type FromServerChild =
  | { readonly type: "ready"; readonly url: string }
  | { readonly type: "memory"; readonly memory: ChildMemory };

const send = (message: FromServerChild) => process.send?.(message);

/**
 * Makes this process a server child of the bench: says the server at `url` is ready, answers
 * questions about its memory, and exits when the bench goes away.
 */
export function serveAsChild(url: string): void {
  process.on("message", (message: ToServerChild) => {
    if (message.type !== "memory") return;
    // `--expose-gc`, which the bench starts every server child with.
    if (message.collect) (globalThis as { gc?: () => void }).gc?.();
    const usage = process.memoryUsage();
    send({
      type: "memory",
      memory: {
        rssMb: usage.rss / 1e6,
        // maxRSS is in kibibytes.
        peakRssMb: (process.resourceUsage().maxRSS * 1024) / 1e6,
        heapMb: usage.heapUsed / 1e6,
      },
    });
  });
  process.on("disconnect", () => process.exit(0));
  send({ type: "ready", url });
}
