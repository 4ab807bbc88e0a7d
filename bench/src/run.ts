import { fileURLToPath } from "node:url";
import { currentEnvironment, describeEnvironment, formatNumber, renderTable } from "./report.js";
import { benchItems } from "./run-all.js";
import { runBench } from "./run-bench.js";
import { fullSettings, quickSettings, smokeSettings } from "./settings.js";

// `pnpm bench` (full): writes results.json and RESULTS.md, after every item.
// `pnpm bench:quick` (--quick, small sizes) and `pnpm bench:smoke` (--smoke, each code path
// once), and `--only=registry,checkpointers` (just those items, see `benchItems`): write
// results.local.json (not committed) instead, after every item too.
const onlyArgument = process.argv.find((argument) => argument.startsWith("--only="));
const only = onlyArgument?.slice("--only=".length).split(",");
const unknown = only?.filter((name) => !(name in benchItems)) ?? [];
if (unknown.length > 0) {
  console.error(`Unknown item ${unknown.join(", ")}; items: ${Object.keys(benchItems).join(", ")}`);
  process.exit(2);
}
const settings = process.argv.includes("--smoke")
  ? smokeSettings
  : process.argv.includes("--quick")
    ? quickSettings
    : fullSettings;
const committed = settings.mode === "full" && !only;
const path = (name: string) => fileURLToPath(new URL(`../${name}`, import.meta.url));
const output = committed
  ? { json: path("results.json"), table: path("RESULTS.md") }
  : { json: path("results.local.json") };

const environment = currentEnvironment();
const results = await runBench({ settings, environment, output, ...(only ? { only } : {}) });

console.log(`\n${describeEnvironment(environment)}\n`);
console.log(renderTable(results.rows));
console.log(`\nTotal ${formatNumber(results.durationSeconds)} s.`);
console.log(`Results written to ${Object.values(output).join(" and ")}.`);
const failed = results.rows.filter((row) => row.verdict === "failed");
if (failed.length > 0) {
  console.error(`${failed.length} item(s) failed: ${failed.map((row) => row.id).join(", ")}.`);
  process.exitCode = 1;
}
