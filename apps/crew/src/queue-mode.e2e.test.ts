import type { ChildProcess } from "node:child_process";
import { randomUUID } from "node:crypto";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { spawnApp } from "@framework/demo-kit/testing";
import { testServiceUrl } from "@framework/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { CrewFinalState } from "./crew-report.js";
import { Recommendation } from "./recommendation.js";
import { offlineApprovalNote } from "./tools-asking-first.js";

const script = fileURLToPath(new URL("../dist/cli.js", import.meta.url));
const postgresUrl = testServiceUrl("postgres");
const redisUrl = testServiceUrl("redis");
const missing = postgresUrl === undefined || redisUrl === undefined;

let cwd: string;
beforeAll(async () => {
  cwd = await mkdtemp(join(tmpdir(), "crew-queue-cli-"));
});
afterAll(async () => {
  await rm(cwd, { recursive: true, force: true });
});

describe.skipIf(missing)("pnpm crew --worker and --queue, on real Redis and Postgres", () => {
  it("runs a query submitted with --queue on a --worker, which SIGTERM closes gracefully", async () => {
    // The app uses the default queue name: a Redis database of this run's own (1-15) keeps a
    // developer's running worker, or a killed earlier run's jobs, away from this test's runs.
    const database = 1 + Math.floor(Math.random() * 15);
    const env = {
      FRAMEWORK_REDIS_URL: `${redisUrl!.replace(/\/\d*$/, "")}/${database}`,
      FRAMEWORK_POSTGRES_URL: postgresUrl!,
      FRAMEWORK_CHARTS_DIR: join(cwd, "charts"),
    };
    let worker!: ChildProcess;
    let ready!: () => void;
    const started = new Promise<void>((resolve) => {
      ready = resolve;
    });
    const workerRun = spawnApp({
      script,
      args: ["--worker", "--offline", "--concurrency", "2"],
      cwd,
      env,
      timeoutMs: 120_000,
      onStart: (child) => {
        worker = child;
        child.stderr?.on("data", (chunk: Buffer) => {
          if (chunk.toString().includes('takes "advisory" runs')) ready();
        });
      },
    });
    await started;

    const thread = `cli-${randomUUID()}`;
    const submitted = await spawnApp({
      script,
      args: [
        "--queue",
        "--offline",
        "--json",
        "--user",
        "alice",
        "--thread",
        thread,
        "Should I buy FPT?",
      ],
      cwd,
      env,
    });
    expect(submitted.stderr).not.toMatch(/^error:/m);
    expect(submitted.code).toBe(0);
    expect(submitted.stderr).toContain(`on thread ${thread}`);
    expect(submitted.stderr).toMatch(/taken by worker /);
    const state = JSON.parse(submitted.stdout) as CrewFinalState;
    const recommendation = Recommendation.parse(state.recommendation);
    expect(recommendation.allocation.reduce((sum, part) => sum + part.percent, 0)).toBe(100);
    expect(state.final_recommendation).toBe(state.messages.at(-1)?.content);

    worker.kill("SIGTERM");
    const closed = await workerRun;
    expect(closed.code).toBe(0);
    expect(closed.stderr).toContain("closing");
    // Nobody can be asked in a worker; offline, every call goes to a local fake, so the web
    // search runs and the worker says why.
    expect(closed.stderr).toContain(offlineApprovalNote);
    expect(closed.stderr).not.toContain("declined:");
  });

  it("says which variable is missing", async () => {
    const result = await spawnApp({ script, args: ["--queue", "--offline", "q"], cwd });
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/error: .*--worker and --queue need FRAMEWORK_REDIS_URL/);
  });
});
