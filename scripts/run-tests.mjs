#!/usr/bin/env node
// Runs every package's tests through turbo, then prints the one closing line CI reads:
// `N passed, N failed, N skipped`, summed from each package's vitest JSON report. Arguments
// are passed on to `turbo run test` (e.g. `--filter @framework/core`).
import { spawnSync } from "node:child_process";
import { existsSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { join } from "node:path";

const root = new URL("..", import.meta.url).pathname;
const workspaceDirs = ["packages", "apps"].flatMap((group) => {
  const dir = join(root, group);
  return existsSync(dir) ? readdirSync(dir).map((name) => join(dir, name)) : [];
});
for (const single of ["bench", "e2e"]) {
  if (existsSync(join(root, single))) workspaceDirs.push(join(root, single));
}
const reportOf = (dir) => join(dir, ".vitest", "results.json");

// A stale report from an earlier run must not be counted; turbo restores the report of a
// cached (unchanged) package, so those still count.
for (const dir of workspaceDirs) rmSync(reportOf(dir), { force: true });

const turbo = spawnSync("pnpm", ["exec", "turbo", "run", "test", "--continue", ...process.argv.slice(2)], {
  cwd: root,
  stdio: "inherit",
  env: { TURBO_TELEMETRY_DISABLED: "1", ...process.env },
});

let passed = 0;
let failed = 0;
let skipped = 0;
for (const dir of workspaceDirs) {
  if (!existsSync(reportOf(dir))) continue;
  const report = JSON.parse(readFileSync(reportOf(dir), "utf8"));
  passed += report.numPassedTests ?? 0;
  failed += report.numFailedTests ?? 0;
  skipped += (report.numPendingTests ?? 0) + (report.numTodoTests ?? 0);
}
const exitCode = turbo.status ?? 1;
// A package whose runner crashed writes no report; make sure the line still says "failed".
if (exitCode !== 0 && failed === 0) failed = 1;
console.log(`${passed} passed, ${failed} failed, ${skipped} skipped`);
process.exit(exitCode);
