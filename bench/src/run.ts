import { fileURLToPath } from "node:url";
import {
  currentEnvironment,
  describeEnvironment,
  formatNumber,
  renderTable,
  writeResults,
} from "./report.js";
import { runAll } from "./run-all.js";
import { fullSettings, smokeSettings } from "./settings.js";

// `pnpm bench` (full) or `pnpm bench:smoke` (--smoke: one repetition of each, small sizes).
const settings = process.argv.includes("--smoke") ? smokeSettings : fullSettings;
const environment = currentEnvironment();
const resultsPath = fileURLToPath(new URL("../results.json", import.meta.url));

console.error(`Benchmarks (${settings.mode}) on ${describeEnvironment(environment)}`);
const started = performance.now();
const rows = await runAll(settings, (done, seconds) => {
  for (const row of done) console.error(`  ${row.id} ${row.title}: ${row.verdict}`);
  console.error(`    (${formatNumber(seconds)} s)`);
});
const durationSeconds = (performance.now() - started) / 1000;

console.log(`\n${describeEnvironment(environment)}\n`);
console.log(renderTable(rows));
console.log(`\nTotal ${formatNumber(durationSeconds)} s.`);
if (settings.mode === "full") {
  await writeResults(resultsPath, {
    generatedAt: new Date().toISOString(),
    mode: settings.mode,
    environment,
    durationSeconds,
    rows,
  });
  console.log(`Results written to ${resultsPath}`);
} else {
  console.log("Smoke run: timings are meaningless and results.json was left as it was.");
}
