// A child process of a bench script, run from its TypeScript source with tsx: its stdout read
// line by line, so the script can wait for what it says (`ready`, `serving <url>`).
import { type ChildProcess, spawn } from "node:child_process";

/** A child process and what it printed. */
export interface LineChild {
  readonly child: ChildProcess;
  readonly lines: readonly string[];
  /** Settles with the first line (printed already or later) that passes `test`. */
  onLine(test: (line: string) => boolean): Promise<string>;
  /** Settles once the child has exited, by itself or killed. */
  readonly exited: Promise<void>;
}

/** Starts `script` (a .ts file) under tsx with `args`; its stderr goes to the bench's. */
export function startLineChild(script: string, args: readonly string[]): LineChild {
  const child = spawn(process.execPath, ["--import", "tsx", script, ...args], {
    stdio: ["ignore", "pipe", "inherit"],
  });
  const lines: string[] = [];
  const waiters: { test: (line: string) => boolean; resolve: (line: string) => void }[] = [];
  let buffer = "";
  child.stdout!.setEncoding("utf8").on("data", (chunk: string) => {
    buffer += chunk;
    const parts = buffer.split("\n");
    buffer = parts.pop()!;
    for (const line of parts) {
      lines.push(line);
      for (const waiter of [...waiters]) {
        if (!waiter.test(line)) continue;
        waiters.splice(waiters.indexOf(waiter), 1);
        waiter.resolve(line);
      }
    }
  });
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  const onLine = (test: (line: string) => boolean) =>
    new Promise<string>((resolve, reject) => {
      const seen = lines.find(test);
      if (seen !== undefined) return resolve(seen);
      waiters.push({ test, resolve });
      void exited.then(() => reject(new Error(`${script} exited before saying what was awaited`)));
    });
  return { child, lines, onLine, exited };
}

/** Stops the children (SIGTERM, so they close what they opened) and waits until they exit. */
export async function stopLineChildren(children: readonly LineChild[]): Promise<void> {
  await Promise.all(
    children.map(({ child, exited }) => {
      if (child.exitCode === null && child.signalCode === null) child.kill("SIGTERM");
      return exited;
    }),
  );
}
