import { cpus, loadavg } from "node:os";
import { setTimeout as sleep } from "node:timers/promises";
import { median } from "./stats.js";

/** The machine's load at one moment, as the report shows it next to each result. */
export interface LoadReading {
  /** One-minute load average divided by the core count: 1 means every core is busy. */
  readonly loadPerCore: number;
  /** How much longer the calibration loop took than its fastest run so far: 1 = idle. */
  readonly slowdown: number;
}

/** What a case saw of the machine, kept in its row. */
export interface LoadSummary {
  readonly loadPerCoreMedian: number;
  readonly slowdownMedian: number;
  /** Pairs thrown away and measured again because the machine got busy during them. */
  readonly remeasured: number;
  /** Milliseconds spent waiting for the machine to calm down. */
  readonly waitedMs: number;
}

/** Where a {@link LoadGuard} reads the machine; injectable so the guard itself is testable. */
export interface LoadProbe {
  read(): LoadReading;
  wait(ms: number): Promise<void>;
}

/** Settings of a {@link LoadGuard}. */
export interface LoadGuardOptions {
  /** Busier than this slowdown of the calibration loop counts as loaded. */
  readonly maxSlowdown: number;
  /** How long to wait between readings of a busy machine. */
  readonly pollMs: number;
  /** Longest total wait per case: on a machine that never calms down the case still runs. */
  readonly maxWaitMs: number;
  /** How often one pair is re-measured before it is kept anyway. */
  readonly maxRemeasures: number;
}

// A fixed amount of integer work: about 2 ms on an idle core of the reference VM, short
// enough to run between every pair.
function calibrationMs(): number {
  const started = performance.now();
  let value = 0;
  for (let index = 0; index < 400_000; index++) value = (value * 31 + index) | 0;
  if (value === 0.5) throw new Error("unreachable: keeps the loop from being optimised away");
  return performance.now() - started;
}

/** The real machine: `os.loadavg` and the calibration loop against its fastest run. */
export function machineProbe(): LoadProbe {
  let fastest = Number.POSITIVE_INFINITY;
  const cores = cpus().length || 1;
  return {
    read() {
      const ms = calibrationMs();
      fastest = Math.min(fastest, ms);
      return { loadPerCore: loadavg()[0]! / cores, slowdown: ms / fastest };
    },
    wait: (ms) => sleep(ms),
  };
}

/**
 * Keeps measurements away from bursts of load on a shared machine: before a pair it waits
 * (within a budget) while the calibration loop runs slower than `maxSlowdown`, and after a
 * pair it asks for the pair to be measured again if the machine got busy meanwhile. Every
 * reading is kept, so the report can show the load beside the result.
 */
export class LoadGuard {
  readonly #probe: LoadProbe;
  readonly #options: LoadGuardOptions;
  readonly #readings: LoadReading[] = [];
  #remeasured = 0;
  #waitedMs = 0;

  constructor(probe: LoadProbe, options: LoadGuardOptions) {
    this.#probe = probe;
    this.#options = options;
  }

  #read(): LoadReading {
    const reading = this.#probe.read();
    this.#readings.push(reading);
    return reading;
  }

  /** Waits while the machine is busy, up to the remaining wait budget. */
  async beforeSample(): Promise<void> {
    while (this.#read().slowdown > this.#options.maxSlowdown) {
      if (this.#waitedMs + this.#options.pollMs > this.#options.maxWaitMs) return;
      await this.#probe.wait(this.#options.pollMs);
      this.#waitedMs += this.#options.pollMs;
    }
  }

  /** Whether the sample just taken should be thrown away and taken again. */
  afterSample(attempt: number): boolean {
    const busy = this.#read().slowdown > this.#options.maxSlowdown;
    if (busy && attempt < this.#options.maxRemeasures) {
      this.#remeasured += 1;
      return true;
    }
    return false;
  }

  /** The load seen since the guard was made. */
  summary(): LoadSummary {
    const readings = this.#readings.length > 0 ? this.#readings : [this.#probe.read()];
    return {
      loadPerCoreMedian: median(readings.map((reading) => reading.loadPerCore)),
      slowdownMedian: median(readings.map((reading) => reading.slowdown)),
      remeasured: this.#remeasured,
      waitedMs: this.#waitedMs,
    };
  }
}

/**
 * The load of a row derived from several measurements (a growth exponent from two sizes):
 * the busiest of their medians, and every re-measured pair and wait of them all.
 */
export function combineLoads(loads: readonly LoadSummary[]): LoadSummary {
  if (loads.length === 0) throw new RangeError("no load to combine");
  return {
    loadPerCoreMedian: Math.max(...loads.map((load) => load.loadPerCoreMedian)),
    slowdownMedian: Math.max(...loads.map((load) => load.slowdownMedian)),
    remeasured: loads.reduce((sum, load) => sum + load.remeasured, 0),
    waitedMs: loads.reduce((sum, load) => sum + load.waitedMs, 0),
  };
}
