#!/usr/bin/env node
import {
  appVersion,
  examplesHelp,
  offlineOptionHelp,
  runApp,
  verboseOptionHelp,
} from "@framework/cli-kit";
import { Command } from "commander";
import { runFinance } from "./run-finance.js";

/** Asked when the command line gives no question. */
const demoQuestion = "How did NVDA do in 2024? Chart it and write a short research report.";

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
  .option("--offline", offlineOptionHelp)
  .option("--verbose", verboseOptionHelp)
  .action(async (words: string[], options: { offline?: boolean; verbose?: boolean }) => {
    process.exitCode = await runApp({
      offline: options.offline === true,
      verbose: options.verbose === true,
      startOffline: () => import("./offline/start-offline.js").then((m) => m.startOffline()),
      main: (run) => runFinance(run, words.join(" ").trim() || demoQuestion),
    });
  })
  .parseAsync();
