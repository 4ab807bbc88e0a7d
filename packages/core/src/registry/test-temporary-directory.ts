import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";

/** A fresh temporary directory and a cleanup that removes it. */
export async function temporaryDirectory(): Promise<{ dir: string; cleanup: () => Promise<void> }> {
  const dir = await mkdtemp(join(tmpdir(), "framework-test-"));
  return { dir, cleanup: () => rm(dir, { recursive: true, force: true }) };
}
