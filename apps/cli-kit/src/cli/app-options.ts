import type { Command } from "commander";
import { checkpointDbVariable, defaultCheckpointDb } from "../checkpoint/app-checkpointer.js";

/** The options every app shares, resolved from its command line. */
export interface AppOptions {
  /** `--thread <id>`: the thread to continue; a new one when absent. */
  threadId?: string;
  /** `--db <file>`: the checkpoint database; see `checkpointDbPath` for the default. */
  db?: string;
  /** `--forget`: delete the thread and exit. */
  forget: boolean;
  /** `--offline`: the demo, on fake services and a scripted model. */
  offline: boolean;
  /** `--verbose`: progress off a terminal too, and the framework's INFO log lines. */
  verbose: boolean;
}

/** What `--help` says of each shared option, the same in every app. */
export const appOptionsHelp = {
  thread:
    "continue this thread across runs (default: a new thread each run, whose id is printed on stderr)",
  db: `the SQLite checkpoint database (default: $${checkpointDbVariable}, else ${defaultCheckpointDb} in the working directory)`,
  forget: "delete the --thread from the checkpoint database, then exit",
  offline: "run the demo offline: fake services on 127.0.0.1 and a scripted model, no keys needed",
  verbose:
    "show progress even when stderr is not a terminal, and the framework's INFO log lines (FRAMEWORK_LOG_LEVEL=info)",
} as const;

/**
 * Declares on `program` the options every app shares (`--thread <id>`, `--db <file>`,
 * `--forget`, `--offline` and `--verbose`) and returns the function that reads them,
 * resolved, once commander has parsed the command line: call it in the action.
 *
 * @example
 * const program = new Command("framework-research").argument("[topic...]");
 * const sharedOptions = appOptions(program);
 * program.action(() => runThreadApp({ app: "research", ...sharedOptions(), ... }));
 */
export function appOptions(program: Command): () => AppOptions {
  program
    .option("--thread <id>", appOptionsHelp.thread)
    .option("--db <file>", appOptionsHelp.db)
    .option("--forget", appOptionsHelp.forget)
    .option("--offline", appOptionsHelp.offline)
    .option("--verbose", appOptionsHelp.verbose);
  return () => {
    const text = (name: string) => program.getOptionValue(name) as string | undefined;
    const flag = (name: string) => program.getOptionValue(name) === true;
    const threadId = text("thread");
    const db = text("db");
    return {
      ...(threadId === undefined ? {} : { threadId }),
      ...(db === undefined ? {} : { db }),
      forget: flag("forget"),
      offline: flag("offline"),
      verbose: flag("verbose"),
    };
  };
}
