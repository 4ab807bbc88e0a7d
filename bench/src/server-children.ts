import { type ChildProcess, spawn } from "node:child_process";
import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { build, type Plugin } from "esbuild";
import type { ChildMemory, ChildWork, FromServerChild, ToServerChild } from "./server-child-ipc.js";

const sourceDirectory = fileURLToPath(new URL(".", import.meta.url));

// Every package a child imports stays a package, loaded from the bench's node_modules as the
// bench resolves it (the built packages): the child's file sits in a temporary directory,
// where a bare name would resolve to nothing.
const packagesFromBench: Plugin = {
  name: "packages-from-bench",
  setup(build) {
    build.onResolve({ filter: /^[^./]/ }, (args) => ({
      path: import.meta.resolve(args.path),
      external: true,
    }));
  },
};

/**
 * Writes `source` (a module of the bench's `src`) to `path` as one plain ES module for Node:
 * the bench's own code bundled in, every package imported from where the bench has it. A
 * TypeScript loader in the child would handle every module the server imports, costing the
 * child CPU and memory the other side would not pay.
 */
export async function writeProgram(source: string, path: string): Promise<void> {
  const result = await build({
    entryPoints: [join(sourceDirectory, source)],
    bundle: true,
    format: "esm",
    platform: "node",
    target: "node20",
    write: false,
    logLevel: "silent",
    plugins: [packagesFromBench],
  });
  await writeFile(path, result.outputFiles[0]!.text);
}

/** How long a server child may take to say it is ready. */
const startTimeoutMs = 60_000;

// Children still running. A paused child cannot hear its channel close when the bench exits,
// so the bench's exit kills them.
const live = new Set<ChildProcess>();
let killOnExit = false;
function track(child: ChildProcess): void {
  live.add(child);
  child.once("exit", () => live.delete(child));
  if (killOnExit) return;
  killOnExit = true;
  process.once("exit", () => {
    for (const each of live) each.kill("SIGKILL");
  });
}

/**
 * A server of item 11 in its own process, started with `--expose-gc` on plain Node, quiet
 * (its log level `error`). While it is paused (SIGSTOP) nothing of it runs: its timers (a
 * queue polled, a store flushed a few seconds after the last write) cannot take the CPU from
 * the other side's measurement.
 */
export class ServerChild {
  readonly #child: ChildProcess;
  readonly #stderr: string[];
  /** `http://127.0.0.1:port`. */
  readonly url: string;

  /** A child already listening at `url`; {@link ServerChild.start} makes one. */
  constructor(child: ChildProcess, stderr: string[], url: string) {
    this.#child = child;
    this.#stderr = stderr;
    this.url = url;
  }

  /** Starts `node --expose-gc program ...args` in `cwd` and waits until its server listens. */
  static async start(
    name: string,
    program: string,
    args: readonly string[],
    cwd: string,
  ): Promise<ServerChild> {
    // A loader injected by the runner (tsx, vitest) must not reach the child.
    const { NODE_OPTIONS: _, ...env } = process.env;
    const child = spawn(process.execPath, ["--expose-gc", program, ...args], {
      cwd,
      env: { ...env, LOG_LEVEL: "error", FRAMEWORK_LOG_LEVEL: "error", NODE_ENV: "production" },
      stdio: ["ignore", "ignore", "pipe", "ipc"],
    });
    track(child);
    const stderr: string[] = [];
    child.stderr!.setEncoding("utf8").on("data", (chunk: string) => {
      stderr.push(chunk);
      if (stderr.length > 50) stderr.shift();
    });
    const url = await new Promise<string>((resolve, reject) => {
      const timer = setTimeout(() => {
        child.kill("SIGKILL");
        reject(new Error(`${name}'s server did not start in ${startTimeoutMs / 1000} s`));
      }, startTimeoutMs);
      const failed = (error: Error) => {
        clearTimeout(timer);
        reject(error);
      };
      const ended = (code: number | null, signal: NodeJS.Signals | null) =>
        failed(new Error(`${name}'s server ended (${code ?? signal}): ${stderr.join("")}`));
      child.once("error", failed);
      child.once("exit", ended);
      const ready = (message: FromServerChild) => {
        if (message.type !== "ready") return;
        clearTimeout(timer);
        child.off("exit", ended);
        child.off("error", failed);
        child.off("message", ready);
        resolve(message.url);
      };
      child.on("message", ready);
    });
    return new ServerChild(child, stderr, url);
  }

  /** The child's memory now, after a garbage collection when `collect` is set. */
  async memory(collect: boolean): Promise<ChildMemory> {
    const answer = await this.#ask({ type: "memory", collect }, "memory");
    return answer.memory;
  }

  /** What the child's servers have done so far (see {@link ChildWork}). */
  async work(): Promise<ChildWork> {
    const answer = await this.#ask({ type: "work" }, "work");
    return answer.work;
  }

  /** Ms per run of the child's graph run `runs` times with no server in the way. */
  async graphAlone(runs: number): Promise<number> {
    const answer = await this.#ask({ type: "graph-alone", runs }, "graph-alone");
    return answer.msPerRun;
  }

  /** Sends `question` and waits for the child's answer of type `type`. */
  #ask<T extends FromServerChild["type"]>(
    question: ToServerChild,
    type: T,
  ): Promise<Extract<FromServerChild, { type: T }>> {
    return new Promise((resolve, reject) => {
      const answered = (message: FromServerChild) => {
        if (message.type !== type) return;
        this.#child.off("message", answered);
        this.#child.off("exit", ended);
        resolve(message as Extract<FromServerChild, { type: T }>);
      };
      const ended = () => reject(new Error(`the server ended: ${this.#stderr.join("")}`));
      this.#child.on("message", answered);
      this.#child.once("exit", ended);
      this.#child.send(question);
    });
  }

  /** Stops every thread of the child until {@link resume}. */
  pause(): void {
    this.#child.kill("SIGSTOP");
  }

  /** Lets a paused child run again. */
  resume(): void {
    this.#child.kill("SIGCONT");
  }

  /** Kills the child (paused or not) and waits until it is gone. */
  async stop(): Promise<void> {
    if (this.#child.exitCode !== null || this.#child.signalCode !== null) return;
    const gone = new Promise((resolve) => this.#child.once("exit", resolve));
    this.#child.kill("SIGKILL");
    await gone;
  }
}
