import { randomUUID } from "node:crypto";
import { open, rename, rm } from "node:fs/promises";

/**
 * Writes `text` to `path` so that a reader, even after a crash, sees the old file or the new
 * one and never a part of either: the text goes to a temporary file beside it
 * (`<name>.<pid>.<uuid>.tmp`, the shape `RegistryFile` sweeps once its writer is dead), is
 * synced to disk, then renamed over `path`. The temporary file is removed when the write fails.
 */
export async function writeFileAtomically(path: string, text: string): Promise<void> {
  const temporary = `${path}.${process.pid}.${randomUUID()}.tmp`;
  try {
    const handle = await open(temporary, "w");
    try {
      await handle.writeFile(text);
      await handle.sync();
    } finally {
      await handle.close();
    }
    await rename(temporary, path);
  } catch (error) {
    await rm(temporary, { force: true });
    throw error;
  }
}
