import { mkdtemp, readFile, rm } from "node:fs/promises";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import {
  type BenchRow,
  currentEnvironment,
  type MeasuredRow,
  measuredRow,
  type Results,
  renderTable,
} from "./report.js";
import { type BenchItem, runAll } from "./run-all.js";
import { runBench } from "./run-bench.js";
import { smokeSettings } from "./settings.js";
import { target } from "./target.js";
import { verifyResults } from "./verify-results.js";

let directory: string;
beforeEach(async () => {
  directory = await mkdtemp(join(tmpdir(), "bench-run-all-"));
});
afterEach(async () => {
  vi.unstubAllEnvs();
  await rm(directory, { recursive: true, force: true });
});

const readResults = async (path: string) => JSON.parse(await readFile(path, "utf8")) as Results;

/** A made-up measured row: only the harness around it is under test. */
function madeUpRow(id: string): MeasuredRow {
  return measuredRow({
    id,
    title: `made-up ${id}`,
    ours: { value: 1, unit: "ms" },
    ratio: "ours ÷ nothing 2.00×",
    target: target("ratio ≥ 1", "ratio", ">=", 1),
    metrics: { ratio: { value: 2, unit: "×", interval: { low: 1.5, high: 2.5 } } },
    load: { loadPerCoreMedian: 0.1, slowdownMedian: 1, remeasured: 0, waitedMs: 0 },
    memory: { ours: { heapMb: 1, rssMb: 2 } },
  });
}

const item = (id: string, run: BenchItem["run"]): BenchItem => ({ id, title: `item ${id}`, run });

/** A port on 127.0.0.1 that was free a moment ago and is closed now. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

// Only the harness is under test: a smoke run's timings mean nothing, so no assertion looks
// at a number's size or at whether a target was met.
describe("runBench (smoke settings)", () => {
  it("runs every item once and writes rows every verdict of which recomputes from the file", async () => {
    const output = { json: join(directory, "results.json"), table: join(directory, "RESULTS.md") };
    const results = await runBench({
      settings: smokeSettings,
      environment: currentEnvironment(),
      output,
      log: () => {},
    });
    const written = await readResults(output.json);
    expect(written).toEqual(JSON.parse(JSON.stringify(results)));
    expect(written).toMatchObject({ mode: "smoke", complete: true });
    expect(verifyResults(written)).toEqual([]);

    const ids = written.rows.map((row) => row.id);
    const expected = [
      ...["1a", "1b", "1c", "1d", "2a", "2b", "2c", "3", "4", "5", "6", "7d", "7e", "7h", "7i"],
      ...["9a", "9b", "10a-memory", "10b-memory", "10a-sqlite", "10b-sqlite", "10a-postgres"],
      ...["11a", "11a-floor", "11b-first", "11b-last", "11b-close", "11b-floor", "11c", "11d"],
    ];
    for (const id of expected) expect(ids, id).toContain(id);
    for (const scaled of ["8", "7a", "7b", "7c", "7f", "7g"]) {
      expect(ids, scaled).toContain(`${scaled}-growth`);
    }
    for (const row of written.rows) {
      // A row that could not run here (no Postgres server) says why instead of vanishing.
      if (row.verdict === "skipped") {
        expect(row.id, row.reason).toMatch(/-postgres$/);
        continue;
      }
      expect(row.verdict, row.id).not.toBe("failed");
      if (row.verdict === "failed") continue;
      for (const quantity of [row.ours, row.aiSdk, row.langGraph, row.reference]) {
        if (quantity) expect(Number.isFinite(quantity.value), row.id).toBe(true);
      }
      expect(row.memory.ours, row.id).toBeDefined();
      expect(row.ratio).not.toBe("");
    }
    const peers = (id: string) => written.rows.find((row) => row.id === id) as MeasuredRow;
    expect(peers("1a").aiSdk).toBeDefined();
    expect(peers("1c").langGraph).toBeDefined();
    expect(peers("1d").reference).toBeDefined();
    expect(peers("5").aiSdk).toBeDefined();
    expect(peers("6").langGraph).toBeDefined();
    expect(peers("7d").target.criteria).toHaveLength(4);
    expect(peers("11a-floor").reference).toBeDefined();
    // Ours with SQLite in memory is reported beside the floor target, never held to it.
    expect(peers("11a-floor").target.criteria).toHaveLength(1);
    expect(peers("11a-floor").metrics).toHaveProperty("inMemoryOverFloor");
    expect(peers("11b-floor").target.criteria).toHaveLength(2);
    expect(peers("11b-floor").metrics).toHaveProperty("inMemoryLastOverFloor");
    expect(peers("11c")).toMatchObject({ langGraph: {}, reference: {} });
    const table = await readFile(output.table, "utf8");
    expect(table).toContain(renderTable(written.rows));
    expect(table.split("\n").filter((line) => line.startsWith("| "))).toHaveLength(
      written.rows.length + 2,
    );
  });
});

describe("runBench", () => {
  it("keeps one row for an item that threw, redacted, runs the rest, and writes after each item", async () => {
    vi.stubEnv("BENCH_TEST_API_KEY", "sk-bench-test-secret-value");
    const output = { json: join(directory, "results.json"), table: join(directory, "RESULTS.md") };
    const seenBySecond: Results[] = [];
    const items = {
      first: item("1", async () => [madeUpRow("1")]),
      second: item("2", async () => {
        seenBySecond.push(await readResults(output.json));
        return [madeUpRow("2")];
      }),
      broken: item("3a–3c", async () => {
        throw new TypeError(
          "cannot reach postgres://bench:hunter2-password@127.0.0.1:1/x with sk-bench-test-secret-value",
        );
      }),
      last: item("4", async () => [madeUpRow("4")]),
    };
    const results = await runBench({
      settings: smokeSettings,
      environment: currentEnvironment(),
      output,
      items,
      log: () => {},
    });

    expect(seenBySecond).toHaveLength(1);
    expect(seenBySecond[0]).toMatchObject({ complete: false, rows: [{ id: "1" }] });
    expect(results.rows.map((row) => [row.id, row.verdict])).toEqual([
      ["1", "met"],
      ["2", "met"],
      ["3a–3c", "failed"],
      ["4", "met"],
    ]);
    const failed = results.rows[2] as Extract<BenchRow, { verdict: "failed" }>;
    expect(failed.title).toBe("item 3a–3c");
    expect(failed.error.name).toBe("TypeError");
    expect(failed.error.message).toContain("cannot reach postgres://[REDACTED]@127.0.0.1:1/x");
    expect(failed.error.message).not.toContain("hunter2");
    expect(failed.error.message).not.toContain("sk-bench-test-secret-value");
    const written = await readResults(output.json);
    expect(written.complete).toBe(true);
    expect(written.rows).toHaveLength(4);
    expect(verifyResults(written)).toEqual([]);
    const table = await readFile(output.table, "utf8");
    expect(table).toContain("| 3a–3c | item 3a–3c |");
    expect(table).toContain("- **3a–3c**: failed: TypeError: cannot reach postgres://[REDACTED]@");
  });

  it("writes only the JSON file when no table is asked for, and records the items chosen", async () => {
    const output = { json: join(directory, "results.local.json") };
    await runBench({
      settings: smokeSettings,
      environment: currentEnvironment(),
      output,
      items: { first: item("1", async () => [madeUpRow("1")]), other: item("2", async () => []) },
      only: ["first"],
      log: () => {},
    });
    expect(await readResults(output.json)).toMatchObject({ only: ["first"], rows: [{ id: "1" }] });
  });
});

describe("runAll", () => {
  it("skips the rows of a server that does not answer, with the reason, under CI too", async () => {
    vi.stubEnv("CI", "true");
    const port = await closedPort();
    const rows = await runAll(smokeSettings, {
      only: ["checkpointers"],
      services: { postgres: `postgres://bench:hunter2-password@127.0.0.1:${port}/bench` },
    });
    const verdicts = Object.fromEntries(rows.map((row) => [row.id, row]));
    for (const id of ["10a-postgres", "10b-postgres"]) {
      expect(verdicts[id]).toMatchObject({
        verdict: "skipped",
        reason: `no Postgres server at 127.0.0.1:${port} (connection refused)`,
        target: { criteria: [{ metric: "ratio", comparator: ">=", threshold: 1 }] },
      });
    }
    for (const id of ["10a-memory", "10b-memory", "10a-sqlite", "10b-sqlite"]) {
      expect(["met", "missed"], id).toContain(verdicts[id]?.verdict);
    }
  });

  it("hands each item the servers it declared, checked before the first item runs", async () => {
    const order: string[] = [];
    const port = await closedPort();
    await runAll(smokeSettings, {
      items: {
        before: item("1", async () => {
          order.push("before");
          return [];
        }),
        needsRedis: {
          ...item("2", async (_settings, services) => {
            order.push(`needsRedis: ${JSON.stringify(services.redis)}`);
            return [];
          }),
          services: ["redis"],
        },
      },
      services: { redis: `redis://127.0.0.1:${port}` },
    });
    expect(order).toEqual([
      "before",
      `needsRedis: {"skipped":"no Redis server at 127.0.0.1:${port} (connection refused)"}`,
    ]);
  });

  it("refuses an item it does not know", async () => {
    await expect(runAll(smokeSettings, { only: ["nope"] })).rejects.toThrow(/Unknown item nope/);
  });
});
