#!/usr/bin/env node
import {
  appVersion,
  askYesNo,
  checkpointDbOptionHelp,
  examplesHelp,
  forgetOptionHelp,
  offlineOptionHelp,
  runThreadApp,
  threadNeeded,
  threadOptionHelp,
  verboseOptionHelp,
} from "@framework/cli-kit";
import { ConfigurationError } from "@framework/core";
import { Command } from "commander";
import { runCrewWorker, submitToQueue } from "./queue-mode.js";
import { runCrew } from "./run-crew.js";

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
  yes?: boolean;
  offline?: boolean;
  verbose?: boolean;
  worker?: boolean;
  queue?: boolean;
  concurrency?: string;
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
  .option("--thread <id>", threadOptionHelp)
  .option("--db <file>", checkpointDbOptionHelp)
  .option("--resume", "finish the --thread's interrupted run instead of asking a new query")
  .option("--forget", forgetOptionHelp)
  .option("--json", "print the recommendation as JSON ({ action, allocation, rationale, risks })")
  .option(
    "--yes",
    "approve the tools that ask first (web search, charts); otherwise you are asked at a terminal, and they are declined elsewhere",
  )
  .option("--offline", offlineOptionHelp)
  .option("--verbose", verboseOptionHelp)
  .option("--worker", "run crews submitted with --queue, until Ctrl-C or SIGTERM")
  .option("--concurrency <n>", "with --worker: runs at once (default 1)")
  .option("--queue", "submit the query to the workers (Redis + Postgres) and print the result")
  .action(async (words: string[], options: CrewOptions) => {
    process.exitCode = await runThreadApp({
      app: "crew",
      flags: options,
      offline: options.offline === true,
      verbose: options.verbose === true,
      json: options.json === true,
      startOffline: () => import("./offline/start-offline.js").then((m) => m.startOffline()),
      main: (run, thread) => {
        if (options.worker) {
          const concurrency = Number(options.concurrency ?? "1");
          if (!Number.isInteger(concurrency) || concurrency < 1) {
            throw new ConfigurationError({
              setting: "--concurrency",
              message: `--concurrency must be a whole number above 0, got ${options.concurrency}`,
            });
          }
          return runCrewWorker(run, { concurrency, approveAll: options.yes === true });
        }
        if (options.resume && options.thread === undefined) throw threadNeeded("--resume");
        const request = {
          query: words.join(" ").trim() || demoQuery,
          json: options.json === true,
          resume: options.resume === true,
          approveAll: options.yes === true,
          // Asked at the terminal only: a run in a pipe or CI must never wait for an answer.
          ...(process.stdin.isTTY
            ? { ask: (question: string) => askYesNo(question, { signal: run.signal }) }
            : {}),
          ...thread,
          ...(options.user === undefined ? {} : { userId: options.user }),
        };
        return options.queue ? submitToQueue(run, request) : runCrew(run, request);
      },
    });
  })
  .parseAsync();
