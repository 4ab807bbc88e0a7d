#!/usr/bin/env node
// `pnpm research|finance|crew|demo|serve`: builds the app and what it depends on, then runs
// it, so the terminal shows only the app's own output. Turbo's banners and task lines are kept
// back and shown only when the build fails. Usage: node scripts/run-app.mjs <app> [arguments].
import { spawn, spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import { join } from "node:path";

const root = new URL("..", import.meta.url).pathname;
const [app, ...args] = process.argv.slice(2);
const cli = join(root, "apps", app ?? "", "dist", "cli.js");
if (!app || !existsSync(join(root, "apps", app, "package.json"))) {
  process.stderr.write(
    `usage: node scripts/run-app.mjs <research|finance|crew|server> [arguments]\n`,
  );
  process.exit(2);
}

const build = spawnSync(
  "pnpm",
  [
    "exec",
    "turbo",
    "run",
    "build",
    `--filter=@framework/app-${app}...`,
    "--output-logs=errors-only",
  ],
  { cwd: root, encoding: "utf8", env: { TURBO_TELEMETRY_DISABLED: "1", ...process.env } },
);
if (build.status !== 0) {
  process.stderr.write(`${build.stdout ?? ""}${build.stderr ?? ""}`);
  process.stderr.write(
    `error: building ${app} failed${build.error ? `: ${build.error.message}` : ""}\n`,
  );
  process.exit(build.status ?? 1);
}

// The app handles Ctrl-C itself (the terminal sends it to both processes); this one waits.
process.on("SIGINT", () => {});
const child = spawn(process.execPath, [cli, ...args], { cwd: process.cwd(), stdio: "inherit" });
child.on("exit", (code, signal) => {
  if (signal) process.kill(process.pid, signal);
  else process.exit(code ?? 1);
});
