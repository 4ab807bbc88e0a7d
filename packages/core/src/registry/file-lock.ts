import { createHash, randomUUID } from "node:crypto";
import { link, mkdir, open, readFile, rm, stat, writeFile } from "node:fs/promises";
import { errorMessage } from "../error/error-message.js";
import { RegistryFileError } from "../error/registry-file-error.js";

/** Options of {@link withFileLock}. */
export interface FileLockOptions {
  /** How long to keep trying before giving up. */
  timeoutMs?: number;
  /** A lock older than this is taken over even if its owner seems alive. */
  staleMs?: number;
}

/** A lock file as read: its text (owner's pid and a token) and the file's identity. */
interface LockSnapshot {
  content: string;
  ino: number;
  mtimeMs: number;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

// A lock without a pid was made by a writer that could not link one into place (see
// createLock) and died before writing its pid, or is writing it right now.
const pidlessLockGraceMs = 2_000;
// Removing a stale lock takes milliseconds; a takeover marker older than this was left by a
// waiter that died while removing one.
const takeoverMarkerStaleMs = 5_000;

/** True when a process with this pid exists (as far as this process can tell). */
export function isProcessAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: the process exists but belongs to someone else.
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}

async function readLock(lockPath: string): Promise<LockSnapshot | undefined> {
  try {
    const [content, info] = await Promise.all([readFile(lockPath, "utf8"), stat(lockPath)]);
    return { content, ino: info.ino, mtimeMs: info.mtimeMs };
  } catch {
    // The lock vanished between our attempts: retry.
    return undefined;
  }
}

function isStale(lock: LockSnapshot, staleMs: number): boolean {
  const pid = Number.parseInt(lock.content, 10);
  const age = Date.now() - lock.mtimeMs;
  if (!(Number.isInteger(pid) && pid > 0)) return age > pidlessLockGraceMs;
  // A writer killed mid-write leaves its lock behind; its pid tells us at once.
  if (pid !== process.pid && !isProcessAlive(pid)) return true;
  return age > staleMs;
}

const sameLock = (a: LockSnapshot | undefined, b: LockSnapshot) =>
  a !== undefined && a.content === b.content && a.ino === b.ino && a.mtimeMs === b.mtimeMs;

/**
 * Removes `stale` and returns true, unless another waiter is doing so. Several waiters may
 * find the same stale lock; if each removed it, a late one would remove the lock an early one
 * had just taken, and both would write at once. So only the waiter that creates the marker
 * named after this very lock removes it, and only while the lock is still that one (no one
 * else removes a stale lock, and no lock can be created while it exists).
 */
async function takeOver(lockPath: string, stale: LockSnapshot): Promise<boolean> {
  const identity = `${stale.ino}:${stale.mtimeMs}:${stale.content}`;
  const marker = `${lockPath}.takeover.${createHash("sha256").update(identity).digest("hex").slice(0, 32)}`;
  try {
    await mkdir(marker);
  } catch {
    const info = await stat(marker).catch(() => undefined);
    if (info && Date.now() - info.mtimeMs > takeoverMarkerStaleMs) {
      await rm(marker, { recursive: true, force: true });
    }
    return false;
  }
  try {
    if (!sameLock(await readLock(lockPath), stale)) return false;
    await rm(lockPath, { force: true });
    return true;
  } finally {
    await rm(marker, { recursive: true, force: true });
  }
}

/**
 * Creates the lock file holding `content` (this process's pid and a token); false if another
 * process holds it. The content is written beside the lock and hard-linked into place, so
 * the lock never exists without its owner's pid, even if this process is killed halfway.
 */
async function createLock(lockPath: string, content: string): Promise<boolean> {
  const staged = `${lockPath}.${process.pid}.${randomUUID()}`;
  await writeFile(staged, content);
  try {
    await link(staged, lockPath);
    return true;
  } catch (error) {
    const { code } = error as NodeJS.ErrnoException;
    if (code === "EEXIST") return false;
    // A file system without hard links: create the lock, then write into it.
    if (code === "EPERM" || code === "ENOTSUP" || code === "EOPNOTSUPP") {
      return createLockInPlace(lockPath, content);
    }
    throw error;
  } finally {
    await rm(staged, { force: true });
  }
}

async function createLockInPlace(lockPath: string, content: string): Promise<boolean> {
  let handle: Awaited<ReturnType<typeof open>>;
  try {
    handle = await open(lockPath, "wx");
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "EEXIST") return false;
    throw error;
  }
  try {
    await handle.writeFile(content);
  } finally {
    await handle.close();
  }
  return true;
}

/**
 * Runs `task` while holding an exclusive lock file beside `path`, shared by every process on
 * the machine. The lock holds the owner's pid from the moment it exists, so a lock left by a
 * killed process is taken over immediately rather than after a timeout, and waiters that find
 * it together take it over one at a time.
 */
export async function withFileLock<T>(
  path: string,
  task: () => Promise<T>,
  { timeoutMs = 10_000, staleMs = 30_000 }: FileLockOptions = {},
): Promise<T> {
  const lockPath = `${path}.lock`;
  const content = `${process.pid} ${randomUUID()}`;
  const deadline = Date.now() + timeoutMs;
  let delay = 2;
  for (;;) {
    let created: boolean;
    try {
      created = await createLock(lockPath, content);
    } catch (error) {
      throw new RegistryFileError({
        path,
        problem: "io",
        message: `Cannot create lock file ${lockPath}: ${errorMessage(error)}`,
        cause: error,
      });
    }
    if (created) break;
    const lock = await readLock(lockPath);
    if (lock && isStale(lock, staleMs) && (await takeOver(lockPath, lock))) continue;
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
  try {
    return await task();
  } finally {
    // A lock held past staleMs may have been taken over; then it is no longer ours to remove.
    if ((await readLock(lockPath))?.content === content) await rm(lockPath, { force: true });
  }
}
