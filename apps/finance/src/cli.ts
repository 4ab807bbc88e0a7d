#!/usr/bin/env node
import { appOptions, appVersion, examplesHelp, runThreadApp } from "@framework/cli-kit";
import { Command } from "commander";
import { runFinance } from "./run-finance.js";

/** Asked when the command line gives no question. */
const demoQuestion = "How did NVDA do in 2024? Chart it and write a short research report.";

interface FinanceFlags {
  json?: boolean;
}

const program = new Command()
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
  .option(
    "--json",
    "print the answer as JSON ({ report, reportIssues, answer, charts, deepSearchReports }; report is null when the model answered in prose)",
  );
const sharedOptions = appOptions(program);

await program
  .action(async (words: string[], flags: FinanceFlags) => {
    const json = flags.json === true;
    process.exitCode = await runThreadApp({
      app: "finance",
      ...sharedOptions(),
      json,
      startOffline: () => import("./offline/start-offline.js").then((m) => m.startOffline()),
      main: (run, thread) =>
        runFinance(run, { question: words.join(" ").trim() || demoQuestion, json, ...thread }),
    });
  })
  .parseAsync();
