import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { runFixtureChild, seededRandom } from "@framework/testing";
import Database from "better-sqlite3";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { SqliteSaver } from "./sqlite-saver.js";
import { crashPayload } from "./test-crash-payload.js";
import { buildTestGraph } from "./test-graph.js";

// Data safety across processes: a writer SIGKILLed at any moment leaves a file that opens with
// every checkpoint whose `put` resolved, whole; several processes appending to one thread get
// each seq exactly once. Children run the real SqliteSaver from source through tsx.
const packageRoot = fileURLToPath(new URL("..", import.meta.url));
const fixture = (name: string) =>
  fileURLToPath(new URL(`../test/fixtures/${name}`, import.meta.url));

/** Runs a fixture; with `kill`, SIGKILLs it `delayMs` after it printed `afterLines` lines. */
function runChild(
  script: string,
  args: string[],
  kill?: { afterLines: number; delayMs: number; when?: (lines: readonly string[]) => boolean },
) {
  return runFixtureChild(fixture(script), args, {
    cwd: packageRoot,
    ...(kill && {
      killAfter: (lines) =>
        lines.length >= kill.afterLines && (kill.when?.(lines) ?? true) ? kill.delayMs : undefined,
    }),
  });
}

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), "framework-sqlite-e2e-"));
});
afterEach(() => {
  rmSync(dir, { recursive: true, force: true });
});

// Each child is a fresh `node --import tsx`: seconds apiece on a busy machine. This bound only
// guards against a hang; nothing here measures speed.
const childrenHangGuardMs = 600_000;

describe("SqliteSaver across processes", () => {
  it(
    "keeps every resolved put, whole, when its writer is SIGKILLed at any moment",
    async () => {
      const seed = Number(process.env.FRAMEWORK_TEST_SEED ?? Date.now() % 1_000_000);
      const random = seededRandom(seed);
      const path = join(dir, "killed.sqlite");
      const kills = 20;
      let confirmed = -1;
      for (let round = 0; round < kills; round++) {
        const run = await runChild("append-until-killed.ts", [path, "t"], {
          afterLines: 1 + Math.floor(random() * 20),
          delayMs: Math.floor(random() * 8),
        });
        expect(run.signal, `seed ${seed}, round ${round}: ${run.stderr}`).toBe("SIGKILL");
        const resolved = run.lines.map((line) => Number(line.split(" ")[1]));
        if (resolved.length > 0) confirmed = Math.max(confirmed, ...resolved);

        const check = new Database(path, { readonly: true });
        expect(check.pragma("integrity_check", { simple: true })).toBe("ok");
        check.close();
        const saver = new SqliteSaver({ path });
        const seqs: number[] = [];
        for await (const checkpoint of saver.list("t")) {
          expect(checkpoint.writes.payload, `seed ${seed}, seq ${checkpoint.seq}`).toEqual(
            crashPayload(checkpoint.seq),
          );
          seqs.push(checkpoint.seq);
        }
        saver.close();
        const head = seqs[0] ?? -1;
        expect(head, `seed ${seed}, round ${round}`).toBeGreaterThanOrEqual(confirmed);
        expect(seqs).toEqual(Array.from({ length: head + 1 }, (_, index) => head - index));
      }
      expect(confirmed).toBeGreaterThan(kills);
    },
    childrenHangGuardMs,
  );

  it(
    "lets several processes append to one thread: each seq is written once, none lost",
    async () => {
      const path = join(dir, "shared.sqlite");
      new SqliteSaver({ path }).close();
      const perWriter = 150;
      const writers = ["a", "b", "c"];
      const runs = await Promise.all(
        writers.map((writer) =>
          runChild("race-appender.ts", [path, "race", writer, String(perWriter)]),
        ),
      );
      const wonBy = new Map<number, string>();
      runs.forEach((run, index) => {
        expect(run.code, run.stderr).toBe(0);
        for (const line of run.lines.filter((text) => text.startsWith("won "))) {
          const seq = Number(line.slice(4));
          expect(wonBy.has(seq), `seq ${seq} claimed twice`).toBe(false);
          wonBy.set(seq, writers[index]!);
        }
      });
      const saver = new SqliteSaver({ path });
      const stored: { seq: number; writer: unknown }[] = [];
      for await (const checkpoint of saver.list("race")) {
        stored.push({ seq: checkpoint.seq, writer: checkpoint.writes.writer });
      }
      saver.close();
      const total = perWriter * writers.length;
      expect(stored).toHaveLength(total);
      expect(stored.map((entry) => entry.seq)).toEqual(
        Array.from({ length: total }, (_, index) => total - 1 - index),
      );
      for (const entry of stored) expect(entry.writer).toBe(wonBy.get(entry.seq));
    },
    childrenHangGuardMs,
  );

  it(
    "resumes a graph whose process was killed mid-run: same final state, no finished node re-run",
    async () => {
      const path = join(dir, "crew.sqlite");
      const killed = await runChild("graph-until-killed.ts", [path, "crew", "report"], {
        afterLines: 0,
        delayMs: 0,
        // node_end events may be printed after the next node has started.
        when: (lines) =>
          ["started report", "finished market", "finished crypto"].every((line) =>
            lines.includes(line),
          ),
      });
      expect(killed.signal, killed.stderr).toBe("SIGKILL");
      expect(killed.lines).toContain("finished market");
      expect(killed.lines).toContain("finished crypto");

      const saver = new SqliteSaver({ path });
      const reran: string[] = [];
      const resumed = await buildTestGraph(saver, (name) => {
        reran.push(name);
      }).invoke(null, { configurable: { thread_id: "crew" } });
      expect(reran).toEqual(["report"]);

      const uninterrupted = await buildTestGraph(saver).invoke(
        { log: "input" },
        { configurable: { thread_id: "uninterrupted" } },
      );
      expect(resumed).toEqual(uninterrupted);
      saver.close();
    },
    childrenHangGuardMs,
  );

  it(
    "shows in getState what another process appended to the thread after this one read it",
    async () => {
      const path = join(dir, "shared.sqlite");
      const saver = new SqliteSaver({ path });
      const graph = buildTestGraph(saver);
      const config = { configurable: { thread_id: "shared" } };
      await graph.invoke({ log: "input" }, config);
      const before = await graph.getState(config);
      expect(await graph.getState(config)).toEqual(before);

      // The child runs the same graph on the same file and thread to the end (no node hangs).
      const child = await runChild("graph-until-killed.ts", [path, "shared", "none"]);
      expect(child.code, child.stderr).toBe(0);

      const after = await graph.getState(config);
      expect(after.checkpoint!.seq).toBeGreaterThan(before.checkpoint!.seq);
      expect(after.values.log.filter((line) => line === "input")).toHaveLength(2);
      expect(after.values.log.length).toBe(2 * before.values.log.length);
      saver.close();
    },
    childrenHangGuardMs,
  );
});
