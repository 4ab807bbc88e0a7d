import { type ChildProcess, spawn } from "node:child_process";

/** How a fixture child ended, with what it printed. */
export interface FixtureChildRun {
  /** The complete lines the child printed on standard output. */
  readonly lines: string[];
  readonly stderr: string;
  readonly code: number | null;
  readonly signal: NodeJS.Signals | null;
}

/** Options of {@link runFixtureChild}. */
export interface RunFixtureChildOptions {
  /** Where the child runs, and where `tsx` resolves from: the package under test. */
  readonly cwd: string;
  /**
   * Asked after each chunk of output, with the lines so far, whether to SIGKILL the child:
   * a delay in milliseconds to kill it after, or `undefined` to let it go on. Asked until it
   * first answers.
   */
  readonly killAfter?: (lines: readonly string[]) => number | undefined;
  /** Called with the child once spawned, e.g. to stop (SIGSTOP) or signal it at will. */
  readonly onStart?: (child: ChildProcess) => void;
  /** Called with each complete line the child prints on standard output, as it comes. */
  readonly onLine?: (line: string) => void;
}

/**
 * Runs a TypeScript fixture in a fresh `node --import tsx`, reading the workspace's packages
 * from source (`@framework/source`) as the tests themselves do, and resolves once it exits.
 * For crash tests: `killAfter` SIGKILLs it at a moment chosen from its output.
 */
export function runFixtureChild(
  script: string,
  args: readonly string[],
  options: RunFixtureChildOptions,
): Promise<FixtureChildRun> {
  return new Promise((resolve, reject) => {
    const child = spawn(
      process.execPath,
      ["--conditions=@framework/source", "--import", "tsx", script, ...args],
      {
        cwd: options.cwd,
        env: { ...process.env, NODE_OPTIONS: "" },
        stdio: ["ignore", "pipe", "pipe"],
      },
    );
    options.onStart?.(child);
    let stdout = "";
    let stderr = "";
    let killScheduled = false;
    const completeLines = () => stdout.split("\n").slice(0, -1);
    child.stdout.setEncoding("utf8").on("data", (chunk: string) => {
      const before = completeLines().length;
      stdout += chunk;
      if (options.onLine) for (const line of completeLines().slice(before)) options.onLine(line);
      const delayMs = killScheduled ? undefined : options.killAfter?.(completeLines());
      if (delayMs === undefined) return;
      killScheduled = true;
      setTimeout(() => child.kill("SIGKILL"), delayMs);
    });
    child.stderr.setEncoding("utf8").on("data", (chunk: string) => {
      stderr += chunk;
    });
    child.on("error", reject);
    child.on("close", (code, signal) => resolve({ lines: completeLines(), stderr, code, signal }));
  });
}
