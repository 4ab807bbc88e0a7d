import { type ChildProcess, type ChildProcessByStdio, spawn } from "node:child_process";
import type { Readable, Writable } from "node:stream";

/** How a spawned app ended. */
export interface AppProcessResult {
  /** The exit code, or `null` when a signal ended it. */
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Options of {@link spawnApp}. */
export interface SpawnAppOptions {
  /** The app's built command-line entry, e.g. `<app>/dist/cli.js`. */
  script: string;
  args?: readonly string[];
  /** Working directory: where `.env`, `templates/tools.json` and `charts/` are looked for. */
  cwd: string;
  /** Set on top of {@link appTestEnvironment}. */
  env?: Record<string, string>;
  /**
   * Kills the app after this long (default 10 minutes): a hang guard beyond any test's own limit,
   * so that a slow or loaded machine never kills an app that is still working.
   */
  timeoutMs?: number;
  /** Called with the process once started: to signal a long-running app (a worker). */
  onStart?: (child: ChildProcess) => void;
}

// Everything the apps read from the environment: a developer's real keys or URLs must never
// reach a test run.
const appVariables = /^(LLM_|TAVILY_|ARXIV_|YAHOO_|COINDESK_|VCI_|FRAMEWORK_|OPENAI_|DOTENV_)/;

/** The test process's environment without any variable the apps read. */
function appTestEnvironment(): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [name, value] of Object.entries(process.env)) {
    if (value !== undefined && !appVariables.test(name)) env[name] = value;
  }
  return env;
}

/**
 * Runs a built app as its own process, as a user would (`node dist/cli.js ...`), and collects
 * its exit code and output. Its standard error is a pipe, so progress comes as plain lines.
 */
export function spawnApp(options: SpawnAppOptions): Promise<AppProcessResult> {
  const child = spawn(process.execPath, [options.script, ...(options.args ?? [])], {
    cwd: options.cwd,
    env: { ...appTestEnvironment(), ...options.env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  options.onStart?.(child);
  return collectOutput(child, options.timeoutMs);
}

/** Apps still running: a test that timed out must not leave them behind when its process ends. */
const running = new Set<ChildProcess>();
process.once("exit", () => {
  for (const child of running) child.kill("SIGKILL");
});

/**
 * Collects a child's output until it ends, killing it after `timeoutMs` (default 10 minutes)
 * so a hang fails the test, not the suite. `onStdout` sees each chunk as it comes.
 */
function collectOutput(
  child: ChildProcessByStdio<Writable | null, Readable, Readable>,
  timeoutMs = 600_000,
  onStdout?: (chunk: string) => void,
): Promise<AppProcessResult> {
  return new Promise((resolve, reject) => {
    let stdout = "";
    let stderr = "";
    child.stdout.setEncoding("utf8").on("data", (chunk: string) => {
      stdout += chunk;
      onStdout?.(chunk);
    });
    child.stderr.setEncoding("utf8").on("data", (chunk: string) => {
      stderr += chunk;
    });
    running.add(child);
    const timer = setTimeout(() => child.kill("SIGKILL"), timeoutMs);
    child.on("error", (error) => {
      clearTimeout(timer);
      running.delete(child);
      reject(error);
    });
    child.on("close", (code) => {
      clearTimeout(timer);
      running.delete(child);
      resolve({ code, stdout, stderr });
    });
  });
}

/** A reply typed into a terminal app once its screen shows the question. */
export interface TerminalAnswer {
  /** Matched against what the app wrote since the previous answer. */
  when: RegExp;
  /** Typed, then Enter. */
  type: string;
}

/** Options of {@link spawnAppOnTerminal}. */
export interface SpawnAppOnTerminalOptions extends SpawnAppOptions {
  /** Typed in order, each once its question shows. */
  answers?: readonly TerminalAnswer[];
}

function shellQuoted(word: string): string {
  return `'${word.replaceAll("'", "'\\''")}'`;
}

/**
 * Runs a built app on a pseudo-terminal, as a person at a terminal would, through util-linux
 * `script`: its standard input, output and error are the terminal (`isTTY`), so it may ask
 * questions, answered from `answers`. `stdout` holds everything the terminal showed, answers
 * echoed included, with its control sequences.
 */
export function spawnAppOnTerminal(options: SpawnAppOnTerminalOptions): Promise<AppProcessResult> {
  const command = [process.execPath, options.script, ...(options.args ?? [])]
    .map(shellQuoted)
    .join(" ");
  const child = spawn(
    "script",
    ["--quiet", "--return", "--flush", "--command", command, "/dev/null"],
    {
      cwd: options.cwd,
      env: { ...appTestEnvironment(), TERM: "xterm", ...options.env },
      stdio: ["pipe", "pipe", "pipe"],
    },
  );
  const answers = [...(options.answers ?? [])];
  let unanswered = "";
  return collectOutput(child, options.timeoutMs, (chunk) => {
    unanswered += chunk;
    const next = answers[0];
    if (next?.when.test(unanswered)) {
      answers.shift();
      unanswered = "";
      child.stdin.write(`${next.type}\r`);
    }
  });
}
