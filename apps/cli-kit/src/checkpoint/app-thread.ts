import { randomUUID } from "node:crypto";
import type { SqliteSaver } from "@framework/checkpoint-sqlite";
import { ConfigurationError } from "@framework/core";
import type { AppOptions } from "../cli/app-options.js";
import {
  type AppCommand,
  type AppRun,
  type RunAppOptions,
  runApp,
  runCommand,
} from "../run/run-app.js";
import { openAppCheckpointer } from "./app-checkpointer.js";

/** The thread a run works on, in the app's checkpoint database. */
export interface AppThread {
  /** The thread's id in the database: the app's name, a colon, and the user's thread id. */
  readonly id: string;
  /** The app's open checkpoint database. */
  readonly checkpointer: SqliteSaver;
}

/** Which thread of which database a run works on. */
export interface AppThreadOptions {
  /**
   * The app's name (`crew`, `research`...). The apps share one database, so each keeps its
   * threads under its name: `--thread 7` of two apps are two threads.
   */
  app: string;
  /** The thread to continue (`--thread`); a new one when absent. */
  threadId?: string;
  /** The checkpoint database (`--db`); see `checkpointDbPath` for the default. */
  db?: string;
}

/** A user's thread id as the app stores it, apart from the other apps' threads. */
export function storedThreadId(app: string, threadId: string): string {
  return `${app}:${threadId}`;
}

/** The command-line error for an option that only makes sense with `--thread`. */
export function threadNeeded(option: string): ConfigurationError {
  return new ConfigurationError({ setting: "--thread", message: `${option} needs --thread <id>` });
}

/**
 * Runs `work` on a thread of the app's checkpoint database, closing the database afterwards.
 * Without a thread id it starts a new thread and says its id on the progress display, so the
 * user can continue it with `--thread`.
 */
export function withAppThread<T>(
  run: AppCommand,
  options: AppThreadOptions,
  work: (thread: AppThread) => Promise<T>,
): Promise<T> {
  return withAppCheckpointer(options.db, (checkpointer) => {
    const id = options.threadId ?? randomUUID();
    if (options.threadId === undefined) {
      run.progress.note(`thread ${id} (continue it with --thread ${id})`);
    }
    return work({ id: storedThreadId(options.app, id), checkpointer });
  });
}

/** Deletes a thread of the app from its checkpoint database (`--forget`) and says so. */
export function forgetAppThread(
  run: AppCommand,
  options: AppThreadOptions & { threadId: string },
): Promise<void> {
  return withAppCheckpointer(options.db, async (checkpointer) => {
    await checkpointer.deleteThread(storedThreadId(options.app, options.threadId));
    run.print(`thread ${options.threadId} deleted from ${checkpointer.path}`);
  });
}

/** Runs `work` on the app's checkpoint database (`db`, or the default), closing it after. */
async function withAppCheckpointer<T>(
  db: string | undefined,
  work: (checkpointer: SqliteSaver) => Promise<T>,
): Promise<T> {
  const checkpointer = openAppCheckpointer(db);
  try {
    return await work(checkpointer);
  } finally {
    checkpointer.close();
  }
}

/** Options of {@link runThreadApp}: those of `runApp`, the app's name and shared options. */
export interface RunThreadAppOptions
  extends Omit<RunAppOptions, "main" | "offline" | "verbose">,
    AppOptions {
  /** The app's name, under which its threads are kept (see {@link AppThreadOptions}). */
  app: string;
  /** The app's work on the thread the options name (a new one without `threadId`). */
  main(run: AppRun, thread: Omit<AppThreadOptions, "app">): Promise<void>;
}

/**
 * Runs an app that keeps threads: with `forget`, deletes the `threadId` thread (refused
 * without one) and ends, without building a model, so it needs no key; otherwise `runApp`
 * with the thread the options name.
 */
export function runThreadApp(options: RunThreadAppOptions): Promise<number> {
  const { app, threadId, db } = options;
  const thread = {
    ...(threadId === undefined ? {} : { threadId }),
    ...(db === undefined ? {} : { db }),
  };
  if (!options.forget) return runApp({ ...options, main: (run) => options.main(run, thread) });
  return runCommand(async (command) => {
    if (threadId === undefined) throw threadNeeded("--forget");
    await forgetAppThread(command, { app, ...thread, threadId });
  }, options);
}
