#!/usr/bin/env node
// Runs the reliability suites (fault injection, fuzzing, crash safety, secrets, load) and prints
// what they counted: faults injected and survived, registry records committed and lost, fuzz
// cases. Each suite writes its counts (a ReliabilityTally from @framework/testing) into
// e2e/.vitest/reliability; this script sums them. It fails when a suite fails, when a fault was
// not survived or when a record was lost. Arguments are passed on to every vitest run.
import { spawnSync } from "node:child_process";
import { existsSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { join } from "node:path";

const root = new URL("..", import.meta.url).pathname;
const reportDir = join(root, "e2e", ".vitest", "reliability");

const runs = [
  {
    name: "@framework/core: fuzzing and registry crash safety",
    cwd: join(root, "packages", "core"),
    files: [".fuzz.test.ts", "registry-file.e2e.test.ts"],
  },
  {
    name: "@framework/graph: fuzzing of the state reducers",
    cwd: join(root, "packages", "graph"),
    files: [".fuzz.test.ts"],
  },
  { name: "@framework/e2e: faults, security, crews, load", cwd: join(root, "e2e"), files: [] },
];

rmSync(reportDir, { recursive: true, force: true });
const started = performance.now();
let failedRuns = 0;
for (const run of runs) {
  console.log(`\n▶ ${run.name}`);
  const result = spawnSync(
    "pnpm",
    ["exec", "vitest", "run", "--reporter=default", ...run.files, ...process.argv.slice(2)],
    {
      cwd: run.cwd,
      stdio: "inherit",
      env: { ...process.env, FRAMEWORK_RELIABILITY_DIR: reportDir },
    },
  );
  if (result.status !== 0) failedRuns += 1;
}

const suites = new Map();
const reports = existsSync(reportDir)
  ? readdirSync(reportDir).filter((n) => n.endsWith(".json"))
  : [];
for (const name of reports) {
  const report = JSON.parse(readFileSync(join(reportDir, name), "utf8"));
  const sum = suites.get(report.suite) ?? {
    faultsInjected: 0,
    faultsSurvived: 0,
    recordsCommitted: 0,
    recordsLost: 0,
    fuzzCases: 0,
  };
  for (const key of Object.keys(sum)) sum[key] += report[key] ?? 0;
  suites.set(report.suite, sum);
}

const columns = [
  ["faultsInjected", "faults injected"],
  ["faultsSurvived", "survived"],
  ["recordsCommitted", "records committed"],
  ["recordsLost", "lost"],
  ["fuzzCases", "fuzz cases"],
];
const total = Object.fromEntries(columns.map(([key]) => [key, 0]));
const rows = [...suites.entries()].sort(([a], [b]) => a.localeCompare(b));
for (const [, sum] of rows) for (const [key] of columns) total[key] += sum[key];

const nameWidth = Math.max(5, ...rows.map(([suite]) => suite.length));
const line = (label, values) =>
  `  ${label.padEnd(nameWidth)}  ${columns.map(([key, title]) => String(values[key]).padStart(title.length)).join("  ")}`;
console.log("\nReliability summary");
console.log(`  ${"suite".padEnd(nameWidth)}  ${columns.map(([, title]) => title).join("  ")}`);
for (const [suite, sum] of rows) console.log(line(suite, sum));
console.log(line("total", total));
console.log(
  `\nFaults injected: ${total.faultsInjected}, survived: ${total.faultsSurvived}. ` +
    `Records committed: ${total.recordsCommitted}, lost: ${total.recordsLost}. ` +
    `Fuzz cases: ${total.fuzzCases}. Time: ${((performance.now() - started) / 1000).toFixed(1)} s.`,
);

const problems = [];
if (failedRuns > 0) problems.push(`${failedRuns} test run(s) failed`);
if (rows.length === 0) problems.push("no suite reported its counts");
if (total.faultsSurvived < total.faultsInjected) {
  problems.push(`${total.faultsInjected - total.faultsSurvived} fault(s) not survived`);
}
if (total.recordsLost > 0) problems.push(`${total.recordsLost} record(s) lost`);
if (problems.length > 0) {
  console.log(`RELIABILITY FAILED: ${problems.join("; ")}`);
  process.exit(1);
}
console.log("RELIABILITY OK");
