import { randomUUID } from "node:crypto";
import { mkdir, writeFile } from "node:fs/promises";
import { join } from "node:path";

/**
 * The variable naming the directory reliability suites report to. `pnpm test:reliability`
 * sets it; when it is unset (an ordinary test run) tallies are kept but not written.
 */
export const reliabilityReportDirVariable = "FRAMEWORK_RELIABILITY_DIR";

/** What one reliability suite counted. */
export interface ReliabilityCounts {
  /** Faults the suite made happen: error answers, hangs, cut connections, bad input, kills. */
  faultsInjected: number;
  /** Faults after which every assertion about the outcome held. */
  faultsSurvived: number;
  /** Records known to have been written before a fault. */
  recordsCommitted: number;
  /** Committed records missing afterwards. Must be 0. */
  recordsLost: number;
  /** Generated inputs a property was checked against. */
  fuzzCases: number;
}

/** One suite's report file: its name and its counts. */
export interface ReliabilityReport extends ReliabilityCounts {
  suite: string;
}

/**
 * Counts what a reliability suite did, honestly: a fault counts as injected when the suite
 * causes it and as survived only once the assertions about its outcome have passed, so a
 * failing case leaves `faultsSurvived` short of `faultsInjected`. `flush()` (in `afterAll`)
 * writes the counts for `pnpm test:reliability` to sum.
 *
 * @example
 * const tally = new ReliabilityTally("llm-faults");
 * afterAll(() => tally.flush());
 * await tally.trial(3, async () => {
 *   server.injectFaults(llmRateLimitFault(), llmRateLimitFault(), llmRateLimitFault());
 *   expect((await agent.invoke("hi")).content).toBe("ok");
 * });
 */
export class ReliabilityTally {
  readonly suite: string;
  readonly #counts: ReliabilityCounts = {
    faultsInjected: 0,
    faultsSurvived: 0,
    recordsCommitted: 0,
    recordsLost: 0,
    fuzzCases: 0,
  };

  constructor(suite: string) {
    this.suite = suite;
  }

  /** A copy of the counts so far. */
  get counts(): ReliabilityCounts {
    return { ...this.#counts };
  }

  /**
   * Counts `faults` as injected, runs `check` (which causes them and asserts the outcome),
   * and counts them as survived only if it resolves.
   */
  async trial<T>(faults: number, check: () => Promise<T>): Promise<T> {
    this.#counts.faultsInjected += faults;
    const result = await check();
    this.#counts.faultsSurvived += faults;
    return result;
  }

  /** Counts faults caused outside a {@link trial}, e.g. by a server's random fault rate. */
  injected(faults: number): void {
    this.#counts.faultsInjected += faults;
  }

  /** Counts faults survived outside a {@link trial}, after their outcome was asserted. */
  survived(faults: number): void {
    this.#counts.faultsSurvived += faults;
  }

  /** Records `committed` records written before a fault, of which `lost` were missing after. */
  records(committed: number, lost: number): void {
    this.#counts.recordsCommitted += committed;
    this.#counts.recordsLost += lost;
  }

  /** Counts generated inputs checked by a property. */
  fuzzed(cases: number): void {
    this.#counts.fuzzCases += cases;
  }

  /** Writes the counts as JSON into `FRAMEWORK_RELIABILITY_DIR`, when it is set. */
  async flush(): Promise<void> {
    const dir = process.env[reliabilityReportDirVariable];
    if (!dir) return;
    await mkdir(dir, { recursive: true });
    const report: ReliabilityReport = { suite: this.suite, ...this.#counts };
    await writeFile(join(dir, `${this.suite}.${randomUUID()}.json`), JSON.stringify(report));
  }
}
