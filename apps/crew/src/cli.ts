#!/usr/bin/env node
import { offlineOptionHelp, runApp } from "@framework/cli-kit";
import { Command } from "commander";
import { crewAnalyst } from "./offline/crew-analyst.js";
import { runCrew } from "./run-crew.js";

/** Asked when the command line gives no query. */
const demoQuery =
  "Compare AAPL and FPT with Bitcoin: how should I split a growth portfolio this month?";

interface CrewOptions {
  user?: string;
  thread: string;
  json?: boolean;
  offline?: boolean;
}

await new Command()
  .name("framework-crew")
  .description(
    "The multi-market advisory crew: an equity analyst and a crypto analyst work in parallel, then a portfolio manager writes one recommendation.",
  )
  .argument("[query...]", `what to ask the crew (default: "${demoQuery}")`)
  .option("--user <id>", "the user the crew acts for (default: unknown_user)")
  .option("--thread <id>", "the checkpoint thread", "1")
  .option("--json", "print the final shared state as JSON instead of the report")
  .option("--offline", offlineOptionHelp)
  .action(async (words: string[], options: CrewOptions) => {
    process.exitCode = await runApp({
      offline: options.offline === true,
      analyst: crewAnalyst,
      main: (run) =>
        runCrew(run, {
          query: words.join(" ").trim() || demoQuery,
          threadId: options.thread,
          json: options.json === true,
          ...(options.user === undefined ? {} : { userId: options.user }),
        }),
    });
  })
  .parseAsync();
