// `pnpm --filter @framework/bench verify [file]`: recomputes every verdict of a results file
// (bench/results.json by default) from its rows' own targets and metrics, and checks that every
// measured row carries its interval, load and peak memory. Exits 1 on the first disagreement.
import { readFile } from "node:fs/promises";
import { fileURLToPath } from "node:url";
import type { Results } from "./report.js";
import { verifyResults } from "./verify-results.js";

const path = process.argv[2] ?? fileURLToPath(new URL("../results.json", import.meta.url));
const results = JSON.parse(await readFile(path, "utf8")) as Results;
const problems = verifyResults(results);
for (const problem of problems) console.error(problem);
console.log(
  problems.length === 0
    ? `${path}: all ${results.rows.length} rows check out.`
    : `${path}: ${problems.length} problem(s).`,
);
if (problems.length > 0) process.exitCode = 1;
