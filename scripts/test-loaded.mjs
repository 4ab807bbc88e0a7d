#!/usr/bin/env node
// Proves the suite does not depend on machine speed: starts CPU-burning processes (8 unless
// LOADED_BURNERS says otherwise), runs the whole suite uncached (`turbo --force`) three times in
// a row, stops the burners whatever happens and reports each run's closing line. Arguments are
// passed on to every run (e.g. `--filter @framework/core`). Exits non-zero unless all runs pass.
import { spawn } from "node:child_process";

const root = new URL("..", import.meta.url).pathname;
const burnerCount = Number(process.env.LOADED_BURNERS ?? 8);
const runs = 3;

const burners = Array.from({ length: burnerCount }, () =>
  spawn(process.execPath, ["-e", "for (;;) {}"], { stdio: "ignore" }),
);
let suite;
const stopBurners = () => {
  for (const burner of burners) if (burner.exitCode === null) burner.kill("SIGKILL");
};
// The burners must not outlive this script, however it ends; a signal also stops the run in
// progress. The suite runs asynchronously so that these handlers can run at any moment.
process.on("exit", stopBurners);
for (const signal of ["SIGINT", "SIGTERM", "SIGHUP"]) {
  process.on(signal, () => {
    stopBurners();
    suite?.kill(signal);
    process.exit(130);
  });
}

/** Runs the suite once; resolves to its exit code and standard output. */
function runSuite() {
  return new Promise((resolve) => {
    suite = spawn(
      process.execPath,
      ["scripts/run-tests.mjs", "--force", "--output-logs=errors-only", ...process.argv.slice(2)],
      { cwd: root, stdio: ["ignore", "pipe", "inherit"] },
    );
    let stdout = "";
    suite.stdout.setEncoding("utf8").on("data", (chunk) => {
      stdout += chunk;
      process.stdout.write(chunk);
    });
    suite.on("close", (code) => resolve({ status: code, stdout }));
  });
}

console.log(`Started ${burnerCount} CPU-burning processes; running the suite ${runs} times.`);
const results = [];
for (let run = 1; run <= runs; run++) {
  const started = performance.now();
  const result = await runSuite();
  const closing = result.stdout.trim().split("\n").at(-1) ?? "";
  const minutes = ((performance.now() - started) / 60_000).toFixed(1);
  results.push({ run, ok: result.status === 0, closing, minutes });
}
stopBurners();

console.log(`\nUnder ${burnerCount} CPU burners:`);
for (const { run, ok, closing, minutes } of results) {
  console.log(`  run ${run}: ${ok ? "green" : "FAILED"} (${closing}) in ${minutes} min`);
}
const allGreen = results.every((result) => result.ok);
console.log(allGreen ? `All ${runs} runs green.` : "Not green under load.");
process.exit(allGreen ? 0 : 1);
