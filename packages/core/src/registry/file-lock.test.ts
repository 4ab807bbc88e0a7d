import { execFile } from "node:child_process";
import { readdir, readFile, utimes, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { promisify } from "node:util";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { withFileLock } from "./file-lock.js";
import { temporaryDirectory } from "./test-temporary-directory.js";

const run = promisify(execFile);
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

let dir: string;
let cleanup: () => Promise<void>;
beforeEach(async () => {
  ({ dir, cleanup } = await temporaryDirectory());
});
afterEach(() => cleanup());

async function deadPid(): Promise<string> {
  const { stdout } = await run(process.execPath, [
    "-e",
    "process.stdout.write(String(process.pid))",
  ]);
  return stdout;
}

/** Runs `count` lock holders at once; returns the most that ever held the lock together. */
async function contend(path: string, count: number): Promise<number> {
  let inside = 0;
  let most = 0;
  await Promise.all(
    Array.from({ length: count }, () =>
      withFileLock(path, async () => {
        inside += 1;
        most = Math.max(most, inside);
        await sleep(2);
        inside -= 1;
      }),
    ),
  );
  return most;
}

describe("withFileLock", () => {
  it("lets one holder in at a time", async () => {
    expect(await contend(join(dir, "tools.json"), 10)).toBe(1);
    expect(await readdir(dir)).toEqual([]);
  });

  it("hands a dead process's lock to one waiter at a time, however many find it together", async () => {
    const path = join(dir, "tools.json");
    for (let round = 0; round < 3; round++) {
      await writeFile(`${path}.lock`, await deadPid());
      expect(await contend(path, 8)).toBe(1);
    }
    expect(await readdir(dir)).toEqual([]);
  });

  it("takes over a lock without a pid once it is old enough to be abandoned", async () => {
    const path = join(dir, "tools.json");
    await writeFile(`${path}.lock`, "");
    const old = new Date(Date.now() - 10_000);
    await utimes(`${path}.lock`, old, old);
    await expect(withFileLock(path, async () => "done", { timeoutMs: 1_000 })).resolves.toBe(
      "done",
    );
  });

  it("leaves a lock that was taken over from it to its new owner", async () => {
    const path = join(dir, "tools.json");
    await withFileLock(path, async () => {
      await writeFile(`${path}.lock`, "1 someone-else");
    });
    await expect(readFile(`${path}.lock`, "utf8")).resolves.toBe("1 someone-else");
  });
});
