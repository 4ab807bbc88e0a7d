import { describe, expect, it } from "vitest";
import { renderTable } from "./report.js";
import { runAll } from "./run-all.js";
import { smokeSettings } from "./settings.js";

// Only the harness is under test: a smoke run's timings mean nothing, so no assertion looks
// at a number's size or at whether a target was met.
describe("runAll (smoke settings)", () => {
  it("runs every item of issues #8, #14 and #19 once and reports each as a complete row", async () => {
    const rows = await runAll(smokeSettings);
    const ids = rows.map((row) => row.id);
    const expected = [
      ...["1a", "1b", "1c", "1d", "2a", "2b", "2c", "3", "4", "5", "6", "7d", "7e", "7h", "7i"],
      ...["9a", "9b", "10a-memory", "10b-memory", "10a-sqlite", "10b-sqlite", "10a-postgres"],
    ];
    for (const id of expected) {
      expect(ids, id).toContain(id);
    }
    for (const scaled of ["8", "7a", "7b", "7c", "7f", "7g"]) {
      expect(ids, scaled).toContain(`${scaled}-growth`);
    }
    for (const row of rows) {
      // A row that could not run here (no Postgres server) says why instead of vanishing.
      if (row.verdict === "skipped") {
        expect(row.note, row.id).toMatch(/^skipped: /);
        continue;
      }
      expect(row.ours, row.id).toBeDefined();
      for (const quantity of [row.ours, row.aiSdk, row.langGraph, row.reference]) {
        if (quantity) expect(Number.isFinite(quantity.value), row.id).toBe(true);
      }
      expect(["met", "missed"]).toContain(row.verdict);
      expect(row.ratio).not.toBe("");
    }
    const peers = (id: string) => rows.find((row) => row.id === id)!;
    expect(peers("1a").aiSdk).toBeDefined();
    expect(peers("1a").interval).toBeDefined();
    expect(peers("1c").langGraph).toBeDefined();
    expect(peers("1d").reference).toBeDefined();
    expect(peers("5").aiSdk).toBeDefined();
    expect(peers("6").langGraph).toBeDefined();
    expect(
      renderTable(rows)
        .split("\n")
        .filter((line) => line.startsWith("| ")),
    ).toHaveLength(rows.length + 2);
  }, 60_000);
});
