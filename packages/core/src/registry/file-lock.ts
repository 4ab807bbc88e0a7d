import { open, readFile, rm, stat } from "node:fs/promises";
import { RegistryFileError } from "../error/registry-file-error.js";

/** Options of {@link withFileLock}. */
export interface FileLockOptions {
  /** How long to keep trying before giving up. */
  timeoutMs?: number;
  /** A lock older than this is taken over even if its owner seems alive. */
  staleMs?: number;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

function isProcessAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: the process exists but belongs to someone else.
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}

async function isStale(lockPath: string, staleMs: number): Promise<boolean> {
  try {
    const [content, info] = await Promise.all([readFile(lockPath, "utf8"), stat(lockPath)]);
    const pid = Number.parseInt(content, 10);
    // A writer killed mid-write leaves its lock behind; its pid tells us at once.
    if (Number.isInteger(pid) && pid > 0 && pid !== process.pid && !isProcessAlive(pid))
      return true;
    return Date.now() - info.mtimeMs > staleMs;
  } catch {
    // The lock vanished between our attempts (or is half-written by its creator): retry.
    return false;
  }
}

/**
 * Runs `task` while holding an exclusive lock file beside `path`, shared by every process on
 * the machine. The lock holds the owner's pid, so a lock left by a killed process is taken
 * over immediately rather than after a timeout.
 */
export async function withFileLock<T>(
  path: string,
  task: () => Promise<T>,
  { timeoutMs = 10_000, staleMs = 30_000 }: FileLockOptions = {},
): Promise<T> {
  const lockPath = `${path}.lock`;
  const deadline = Date.now() + timeoutMs;
  let delay = 2;
  for (;;) {
    try {
      const handle = await open(lockPath, "wx");
      try {
        await handle.writeFile(String(process.pid));
      } finally {
        await handle.close();
      }
      break;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "EEXIST") {
        throw new RegistryFileError({
          path,
          problem: "io",
          message: `Cannot create lock file ${lockPath}: ${(error as Error).message}`,
          cause: error,
        });
      }
      if (await isStale(lockPath, staleMs)) {
        await rm(lockPath, { force: true });
        continue;
      }
      if (Date.now() > deadline) {
        throw new RegistryFileError({
          path,
          problem: "locked",
          message: `Tool registry file ${path} stayed locked for ${timeoutMs} ms. If no other agent is running, delete ${lockPath}.`,
        });
      }
      await sleep(delay + Math.random() * delay);
      delay = Math.min(delay * 2, 50);
    }
  }
  try {
    return await task();
  } finally {
    await rm(lockPath, { force: true });
  }
}
