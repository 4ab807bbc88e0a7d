import { execFileSync } from "node:child_process";
import { chownSync, existsSync, mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { freePort } from "./free-port.js";

/** A throwaway Postgres server of a test's own, which it may stop and start at will. */
export interface PrivatePostgres {
  readonly url: string;
  stop(): void;
  start(): void;
  /** Stops the server and deletes its data. */
  destroy(): void;
}

/** Where the server programs are: on PATH, or Debian's versioned directory. */
function serverBin(): string | undefined {
  for (const dir of (process.env.PATH ?? "").split(":")) {
    if (dir && existsSync(join(dir, "initdb"))) return dir;
  }
  const base = "/usr/lib/postgresql";
  if (!existsSync(base)) return undefined;
  const versions = readdirSync(base).sort((a, b) => Number(b) - Number(a));
  for (const version of versions) {
    const dir = join(base, version, "bin");
    if (existsSync(join(dir, "initdb"))) return dir;
  }
  return undefined;
}

/** True when this machine can run a private server (the programs are installed). */
export const canRunPrivatePostgres = serverBin() !== undefined;

/**
 * Initialises and starts a private server on 127.0.0.1 in a temporary directory, as
 * `scripts/services.sh` does (as root, its programs run as the `postgres` user).
 */
export async function startPrivatePostgres(): Promise<PrivatePostgres> {
  const bin = serverBin();
  if (bin === undefined) throw new Error("PostgreSQL server programs (initdb, pg_ctl) not found");
  const asRoot = process.getuid?.() === 0;
  const run = (program: string, args: string[]) =>
    asRoot
      ? execFileSync("runuser", ["-u", "postgres", "--", join(bin, program), ...args], {
          stdio: "pipe",
        })
      : execFileSync(join(bin, program), args, { stdio: "pipe" });
  const dir = mkdtempSync(join(tmpdir(), "framework-private-pg-"));
  if (asRoot) {
    const uid = Number(execFileSync("id", ["-u", "postgres"]).toString());
    const gid = Number(execFileSync("id", ["-g", "postgres"]).toString());
    chownSync(dir, uid, gid);
  }
  const data = join(dir, "data");
  run("initdb", [
    "-D",
    data,
    "-U",
    "postgres",
    "-A",
    "trust",
    "-E",
    "UTF8",
    "--no-locale",
    "--no-sync",
  ]);
  const port = await freePort();
  const options = `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1 -c fsync=off -c synchronous_commit=off`;
  const start = () =>
    run("pg_ctl", [
      "-D",
      data,
      "-l",
      join(dir, "server.log"),
      "-w",
      "-t",
      "60",
      "-o",
      options,
      "start",
    ]);
  const stop = () => run("pg_ctl", ["-D", data, "-m", "fast", "-w", "stop"]);
  start();
  return {
    url: `postgres://postgres@127.0.0.1:${port}/postgres`,
    start,
    stop,
    destroy() {
      try {
        stop();
      } catch {
        // Already stopped.
      }
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
