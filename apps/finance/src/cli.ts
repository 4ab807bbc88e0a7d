#!/usr/bin/env node
import {
  appVersion,
  checkpointDbOptionHelp,
  examplesHelp,
  forgetOptionHelp,
  offlineOptionHelp,
  runThreadApp,
  threadOptionHelp,
  verboseOptionHelp,
} from "@framework/cli-kit";
import { Command } from "commander";
import { runFinance } from "./run-finance.js";

/** Asked when the command line gives no question. */
const demoQuestion = "How did NVDA do in 2024? Chart it and write a short research report.";

interface FinanceOptions {
  thread?: string;
  db?: string;
  forget?: boolean;
  json?: boolean;
  offline?: boolean;
  verbose?: boolean;
}

await new Command()
  .name("framework-finance")
  .version(appVersion(import.meta.url))
  .addHelpText(
    "after",
    examplesHelp([
      {
        command: "pnpm finance --offline",
        does: "the demo, with sample prices and a scripted model",
      },
      {
        command: 'pnpm finance "How did AAPL do in 2023?"',
        does: "prices, a chart under ./charts and a short report",
      },
    ]),
  )
  .description(
    "The financial-analysis agent: prices, charts (saved under ./charts), news and deep-search reports.",
  )
  .argument("[question...]", `what to ask (default: "${demoQuestion}")`)
  .option("--thread <id>", threadOptionHelp)
  .option("--db <file>", checkpointDbOptionHelp)
  .option("--forget", forgetOptionHelp)
  .option("--json", "print the answer as JSON ({ report, charts, deepSearchReports })")
  .option("--offline", offlineOptionHelp)
  .option("--verbose", verboseOptionHelp)
  .action(async (words: string[], options: FinanceOptions) => {
    process.exitCode = await runThreadApp({
      app: "finance",
      flags: options,
      offline: options.offline === true,
      verbose: options.verbose === true,
      json: options.json === true,
      startOffline: () => import("./offline/start-offline.js").then((m) => m.startOffline()),
      main: (run, thread) =>
        runFinance(run, {
          question: words.join(" ").trim() || demoQuestion,
          json: options.json === true,
          ...thread,
        }),
    });
  })
  .parseAsync();
