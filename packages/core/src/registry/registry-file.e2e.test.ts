import { readdir, readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { ReliabilityTally, runFixtureChild, seededRandom } from "@framework/testing";
import { afterAll, afterEach, beforeEach, describe, expect, it } from "vitest";
import { RegistryFileError } from "../error/registry-file-error.js";
import { RegistryFile } from "./registry-file.js";
import { temporaryDirectory } from "./test-temporary-directory.js";

// Data safety of the registry file across processes: concurrent writers lose nothing, a writer
// killed at any moment leaves a valid file holding everything it committed, and a corrupt file
// is refused and left as it was. Children run the real RegistryFile through tsx.
const tally = new ReliabilityTally("registry-file");
afterAll(() => tally.flush());

const packageRoot = fileURLToPath(new URL("../..", import.meta.url));
const fixture = (name: string) =>
  fileURLToPath(new URL(`../../test/fixtures/${name}`, import.meta.url));

/** Runs a fixture; `killAfter` may SIGKILL it at a moment chosen from its output. */
function runChild(
  script: string,
  args: string[],
  killAfter?: (lines: readonly string[]) => number | undefined,
) {
  return runFixtureChild(fixture(script), args, {
    cwd: packageRoot,
    ...(killAfter && { killAfter }),
  });
}

let dir: string;
let cleanup: () => Promise<void>;
beforeEach(async () => {
  ({ dir, cleanup } = await temporaryDirectory());
});
afterEach(() => cleanup());

// Each child is a fresh `node --import tsx` that compiles its fixture: seconds apiece on a
// busy machine. The bounds below only guard against a hang; nothing here measures speed.
const childrenHangGuardMs = 600_000;

describe("the registry file across processes", () => {
  it(
    "keeps every record when ten processes register different tools at the same time",
    async () => {
      const path = join(dir, "tools.json");
      // They start by finding the lock of a writer that died (no pid is that high on Linux), so
      // they all want to take it over at once.
      await writeFile(`${path}.lock`, "999999999 lock-of-a-writer-that-died");
      const writers = Array.from({ length: 10 }, (_, i) => `writer${i}`);
      const runs = await Promise.all(
        writers.map((prefix) => runChild("merge-records.ts", [path, prefix, "10"])),
      );
      expect(runs.map((run) => run.code)).toEqual(writers.map(() => 0));

      const stored = await new RegistryFile(path).read();
      const expected = writers.flatMap((prefix) =>
        Array.from({ length: 10 }, (_, i) => `${prefix}_${i}`),
      );
      const lost = expected.filter((name) => stored[name] === undefined);
      tally.records(expected.length, lost.length);
      expect(lost).toEqual([]);
      expect(Object.keys(stored)).toHaveLength(100);
      expect(stored.writer9_9).toMatchObject({ module_path: "runtime", is_runtime: true });
      expect(await readdir(dir)).toEqual(["tools.json"]);
    },
    childrenHangGuardMs,
  );

  it(
    "stays valid JSON with every committed record when a writer is killed mid-write, 20 times",
    async () => {
      const seed = Number(process.env.REGISTRY_KILL_SEED) || Date.now() % 1_000_000;
      const random = seededRandom(seed);
      const path = join(dir, "tools.json");
      const committed: string[] = [];
      for (let iteration = 0; iteration < 20; iteration++) {
        const commitsBeforeKill = 1 + Math.floor(random() * 6);
        const killDelayMs = Math.floor(random() * 4);
        const run = await tally.trial(1, async () => {
          const result = await runChild(
            "merge-until-killed.ts",
            [path, `kill${iteration}`],
            (lines) => (lines.length >= commitsBeforeKill ? killDelayMs : undefined),
          );
          expect(result.signal, `iteration ${iteration}, seed ${seed}: ${result.stderr}`).toBe(
            "SIGKILL",
          );
          return result;
        });
        committed.push(...run.lines);

        // Whatever the moment of the kill, the file parses and holds every committed record.
        const stored = await new RegistryFile(path).read();
        const lost = run.lines.filter((name) => stored[name] === undefined);
        tally.records(run.lines.length, lost.length);
        expect(lost, `iteration ${iteration}, seed ${seed}`).toEqual([]);
      }

      // The last writer's lock (its owner is dead) is taken over, nothing was lost overall, and
      // the killed writers' temporary files are swept away.
      const final = await new RegistryFile(path).merge([]);
      expect(committed.filter((name) => final[name] === undefined)).toEqual([]);
      expect(committed.length).toBeGreaterThanOrEqual(20);
      expect(await readdir(dir)).toEqual(["tools.json"]);
    },
    childrenHangGuardMs,
  );

  it(
    "keeps every record when four processes each register a burst of 250 runtime tools at once",
    async () => {
      const path = join(dir, "tools.json");
      const writers = Array.from({ length: 4 }, (_, i) => `burst${i}`);
      const runs = await Promise.all(
        writers.map((prefix) => runChild("register-burst.ts", [path, prefix, "250"])),
      );
      expect(runs.map((run) => run.code)).toEqual(writers.map(() => 0));
      const stored = await new RegistryFile(path).read();
      const expected = runs.flatMap((run) => run.lines);
      const lost = expected.filter((name) => stored[name] === undefined);
      tally.records(expected.length, lost.length);
      expect(expected).toHaveLength(1000);
      expect(lost).toEqual([]);
      expect(Object.keys(stored)).toHaveLength(1000);
    },
    childrenHangGuardMs,
  );

  it(
    "keeps the flushed batch and a valid file when a process dies between register and flush",
    async () => {
      const path = join(dir, "tools.json");
      const run = await tally.trial(1, async () => {
        const result = await runChild("register-burst.ts", [path, "crash", "100", "crash"]);
        expect(result.signal, result.stderr).toBe("SIGKILL");
        return result;
      });
      const stored = await new RegistryFile(path).read();
      const lost = run.lines.filter((name) => stored[name] === undefined);
      tally.records(run.lines.length, lost.length);
      expect(run.lines).toHaveLength(100);
      expect(lost).toEqual([]);
      // The second burst was never flushed: the contract is that it is lost, not half-written.
      expect(Object.keys(stored).filter((name) => name.includes("unflushed"))).toEqual([]);
      await new RegistryFile(path).merge([]);
      expect(await readdir(dir)).toEqual(["tools.json"]);
    },
    childrenHangGuardMs,
  );

  it(
    "refuses a corrupt file in another process with a clear error, and leaves it untouched",
    async () => {
      const path = join(dir, "tools.json");
      const torn = '{\n  "get_weather": {\n    "tool_name": "get_wea';
      await writeFile(path, torn);
      const run = await tally.trial(1, async () => {
        const result = await runChild("register-tools.ts", [path, "late", "1"]);
        expect(result.code).not.toBe(0);
        expect(result.stderr).toContain("RegistryFileError");
        expect(result.stderr).toContain(`Tool registry file ${path} is not valid JSON`);
        expect(result.stderr).toContain("It was left untouched: repair it, or delete it");
        return result;
      });
      expect(run.lines).toEqual([]);
      await expect(readFile(path, "utf8")).resolves.toBe(torn);
      expect(await readdir(dir)).toEqual(["tools.json"]);
      const error = await new RegistryFile(path).merge([]).catch((e: unknown) => e);
      expect(RegistryFileError.isInstance(error) && error.problem).toBe("corrupt");
    },
    childrenHangGuardMs,
  );
});
