import type { RunDispatcher } from "./run-dispatcher.js";
import { createServerRuns, type ServerRunsOptions } from "./server-runs.js";

/**
 * Options of {@link createRunExecutor}: those of the server's run execution, with the
 * dispatcher required (a worker's recovery sweep wakes the pool through it) and no quotas
 * (they hold run creations, which happen on the server instances).
 */
export interface RunExecutorOptions extends Omit<ServerRunsOptions, "dispatcher" | "quotas"> {
  /** Wakes the pool for the runs a recovery finds. */
  readonly dispatcher: RunDispatcher;
}

/** A server's run execution without HTTP: what a queue worker runs. */
export interface RunExecutor {
  /** Follows the store's changes (stops asked for anywhere) and wakes the pool for what is unfinished. */
  start(): Promise<void>;
  /** Executes the thread's unfinished runs here, unless a live process holds the thread. */
  executeThread(threadId: string): Promise<void>;
  /** The threads whose runs execute here now. */
  executingThreads(): string[];
  /** Wakes the pool for every thread with unfinished runs: the recovery sweep. */
  recover(): Promise<void>;
  /** Drains executing runs as `FrameworkServer.close` does, within `graceMs`. */
  close(graceMs: number): Promise<void>;
}

/**
 * The run execution of `createServer` (same stream modes, interrupts, multitask strategies,
 * cancels and recovery), for a worker that executes what a queue wakes it for.
 */
export function createRunExecutor(options: RunExecutorOptions): RunExecutor {
  const { log, reporting, runs } = createServerRuns(options);
  return {
    start: () => runs.start(),
    executeThread: (threadId) => runs.executeThread(threadId),
    recover: () => runs.recover(),
    executingThreads: () => runs.executingThreads(),
    async close(graceMs) {
      await runs.close(graceMs);
      await log.flush().catch(() => {});
      await reporting.close();
    },
  };
}
