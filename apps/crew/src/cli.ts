#!/usr/bin/env node
import {
  appVersion,
  checkpointDbOptionHelp,
  examplesHelp,
  offlineOptionHelp,
  runApp,
  verboseOptionHelp,
} from "@framework/cli-kit";
import { ConfigurationError } from "@framework/core";
import { Command } from "commander";
import { forgetThread, runCrew } from "./run-crew.js";

/** Asked when the command line gives no query. */
const demoQuery =
  "Compare AAPL and FPT with Bitcoin: how should I split a growth portfolio this month?";

interface CrewOptions {
  user?: string;
  thread?: string;
  db?: string;
  forget?: boolean;
  resume?: boolean;
  json?: boolean;
  offline?: boolean;
  verbose?: boolean;
}

function threadNeeded(option: string): ConfigurationError {
  return new ConfigurationError({ setting: "--thread", message: `${option} needs --thread <id>` });
}

await new Command()
  .name("framework-crew")
  .version(appVersion(import.meta.url))
  .addHelpText(
    "after",
    examplesHelp([
      { command: "pnpm demo", does: "the crew offline, with sample data and a scripted model" },
      {
        command: 'pnpm crew --user alice "Should I buy NVDA or BTC?"',
        does: "the four-agent crew on a real model",
      },
    ]),
  )
  .description(
    "The multi-market advisory crew: an equity analyst and a crypto analyst work in parallel, then a portfolio manager writes one recommendation.",
  )
  .argument("[query...]", `what to ask the crew (default: "${demoQuery}")`)
  .option("--user <id>", "the user the crew acts for (default: unknown_user)")
  .option("--thread <id>", "continue this checkpoint thread (default: a new thread per run)")
  .option("--db <file>", checkpointDbOptionHelp)
  .option("--resume", "finish the --thread's interrupted run instead of asking a new query")
  .option("--forget", "delete the --thread from the checkpoint database and exit")
  .option("--json", "print the final shared state as JSON instead of the report")
  .option("--offline", offlineOptionHelp)
  .option("--verbose", verboseOptionHelp)
  .action(async (words: string[], options: CrewOptions) => {
    process.exitCode = await runApp({
      offline: options.offline === true,
      verbose: options.verbose === true,
      json: options.json === true,
      startOffline: () => import("./offline/start-offline.js").then((m) => m.startOffline()),
      main: (run) => {
        if (options.forget) {
          if (options.thread === undefined) throw threadNeeded("--forget");
          return forgetThread(run, options.thread, options.db);
        }
        if (options.resume && options.thread === undefined) throw threadNeeded("--resume");
        return runCrew(run, {
          query: words.join(" ").trim() || demoQuery,
          json: options.json === true,
          resume: options.resume === true,
          ...(options.thread === undefined ? {} : { threadId: options.thread }),
          ...(options.db === undefined ? {} : { db: options.db }),
          ...(options.user === undefined ? {} : { userId: options.user }),
        });
      },
    });
  })
  .parseAsync();
