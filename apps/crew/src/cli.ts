#!/usr/bin/env node
import {
  appOptions,
  appVersion,
  askYesNo,
  examplesHelp,
  runThreadApp,
  threadNeeded,
} from "@framework/cli-kit";
import { ConfigurationError } from "@framework/core";
import { Command } from "commander";
import { runCrewWorker, submitToQueue } from "./queue-mode.js";
import { runCrew } from "./run-crew.js";
import { offlineApprovalNote } from "./tools-asking-first.js";

/** Asked when the command line gives no query. */
const demoQuery =
  "Compare AAPL and FPT with Bitcoin: how should I split a growth portfolio this month?";

/** The crew's own options, as commander names them after the flags (`--user` is `user`). */
interface CrewFlags {
  user?: string;
  resume?: boolean;
  json?: boolean;
  yes?: boolean;
  worker?: boolean;
  queue?: boolean;
  concurrency?: string;
}

const program = new Command()
  .name("framework-crew")
  .version(appVersion(import.meta.url))
  .addHelpText(
    "after",
    examplesHelp([
      { command: "pnpm demo", does: "the crew offline, with sample data and a scripted model" },
      {
        command: 'pnpm crew --user alice "Should I buy NVDA or BTC?"',
        does: "the crew (two analysts in parallel, then a portfolio manager) on a real model",
      },
    ]),
  )
  .description(
    "The multi-market advisory crew: an equity analyst and a crypto analyst work in parallel, then a portfolio manager writes one recommendation.",
  )
  .argument("[query...]", `what to ask the crew (default: "${demoQuery}")`)
  .option("--user <id>", "the user the crew acts for (default: unknown_user)")
  .option("--resume", "finish the --thread's interrupted run instead of asking a new query")
  .option(
    "--json",
    "print the crew's final state as JSON ({ messages, equity_insight, crypto_insight, final_recommendation, recommendation, recommendation_issues }; recommendation is null when the model answered in prose)",
  )
  .option(
    "--yes",
    "approve the tools that ask first (web search, charts); otherwise you are asked at a terminal, and they are declined elsewhere (--offline approves them: every call goes to a local fake)",
  )
  .option("--worker", "run crews submitted with --queue, until Ctrl-C or SIGTERM")
  .option("--concurrency <n>", "with --worker: runs at once (default 1)")
  .option("--queue", "submit the query to the workers (Redis + Postgres) and print the result");
const sharedOptions = appOptions(program);

await program
  .action(async (words: string[], flags: CrewFlags) => {
    const shared = sharedOptions();
    process.exitCode = await runThreadApp({
      app: "crew",
      ...shared,
      json: flags.json === true,
      startOffline: () => import("./offline/start-offline.js").then((m) => m.startOffline()),
      main: (run, thread) => {
        // Offline, every call goes to a local fake, so the tools that ask first need no one's
        // approval; a real run keeps asking (or declining, with no terminal to ask at). A
        // --queue submitter runs no tool: the worker that takes the run decides.
        const approveAll = flags.yes === true || shared.offline;
        if (shared.offline && flags.yes !== true && !flags.queue) {
          run.progress.note(offlineApprovalNote);
        }
        if (flags.worker) {
          const concurrency = Number(flags.concurrency ?? "1");
          if (!Number.isInteger(concurrency) || concurrency < 1) {
            throw new ConfigurationError({
              setting: "--concurrency",
              message: `--concurrency must be a whole number above 0, got ${flags.concurrency}`,
            });
          }
          return runCrewWorker(run, { concurrency, approveAll });
        }
        if (flags.resume && shared.threadId === undefined) throw threadNeeded("--resume");
        const request = {
          query: words.join(" ").trim() || demoQuery,
          json: flags.json === true,
          resume: flags.resume === true,
          approveAll,
          // Asked at the terminal only: a run in a pipe or CI must never wait for an answer.
          ...(process.stdin.isTTY
            ? { ask: (question: string) => askYesNo(question, { signal: run.signal }) }
            : {}),
          ...thread,
          ...(flags.user === undefined ? {} : { userId: flags.user }),
        };
        return flags.queue ? submitToQueue(run, request) : runCrew(run, request);
      },
    });
  })
  .parseAsync();
