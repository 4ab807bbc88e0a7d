import { setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";

// A forced collection before samples of cases that allocate heavily, so one side does not
// pay for the other's garbage; `--expose-gc` set at run time reaches a fresh context's `gc`.
setFlagsFromString("--expose-gc");
/** Runs a full garbage collection. */
export const collectGarbage = runInNewContext("gc") as () => void;

/** Peak memory seen while something ran, in megabytes. */
export interface PeakMemory {
  readonly heapMb: number;
  readonly rssMb: number;
}

/**
 * Samples heap and RSS every few milliseconds while `run` runs, and once at its end: a
 * peak between samples can be missed, so this is a lower bound of the true peak.
 */
export async function withPeakMemory<T>(
  run: () => Promise<T>,
  intervalMs = 5,
): Promise<{ value: T; peak: PeakMemory }> {
  let heap = 0;
  let rss = 0;
  const sample = () => {
    const usage = process.memoryUsage();
    heap = Math.max(heap, usage.heapUsed);
    rss = Math.max(rss, usage.rss);
  };
  sample();
  const timer = setInterval(sample, intervalMs);
  try {
    const value = await run();
    sample();
    return { value, peak: { heapMb: heap / 1e6, rssMb: rss / 1e6 } };
  } finally {
    clearInterval(timer);
  }
}

/** The larger heap and the larger RSS of `peaks` (both zero for none). */
export function maxPeak(...peaks: readonly PeakMemory[]): PeakMemory {
  return {
    heapMb: Math.max(0, ...peaks.map((peak) => peak.heapMb)),
    rssMb: Math.max(0, ...peaks.map((peak) => peak.rssMb)),
  };
}
