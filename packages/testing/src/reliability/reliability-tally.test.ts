import { mkdtemp, readdir, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it, vi } from "vitest";
import { ReliabilityTally, reliabilityReportDirVariable } from "./reliability-tally.js";

let dir: string | undefined;

afterEach(async () => {
  vi.unstubAllEnvs();
  if (dir) await rm(dir, { recursive: true, force: true });
  dir = undefined;
});

describe("ReliabilityTally", () => {
  it("counts a trial's faults as survived only when its check passes", async () => {
    const tally = new ReliabilityTally("unit");
    await expect(tally.trial(2, async () => "ok")).resolves.toBe("ok");
    await expect(
      tally.trial(3, async () => {
        throw new Error("assertion failed");
      }),
    ).rejects.toThrow("assertion failed");
    tally.injected(4);
    tally.survived(4);
    tally.records(10, 0);
    tally.fuzzed(100);
    expect(tally.counts).toEqual({
      faultsInjected: 9,
      faultsSurvived: 6,
      recordsCommitted: 10,
      recordsLost: 0,
      fuzzCases: 100,
    });
  });

  it("writes its counts into the report directory when one is set", async () => {
    dir = await mkdtemp(join(tmpdir(), "tally-"));
    vi.stubEnv(reliabilityReportDirVariable, join(dir, "nested"));
    const tally = new ReliabilityTally("unit");
    tally.injected(1);
    await tally.flush();
    const [name] = await readdir(join(dir, "nested"));
    expect(name).toMatch(/^unit\..+\.json$/);
    const report = JSON.parse(await readFile(join(dir, "nested", name ?? ""), "utf8"));
    expect(report).toMatchObject({ suite: "unit", faultsInjected: 1, faultsSurvived: 0 });
  });

  it("writes nothing in an ordinary test run", async () => {
    vi.stubEnv(reliabilityReportDirVariable, "");
    await expect(new ReliabilityTally("unit").flush()).resolves.toBeUndefined();
  });
});
