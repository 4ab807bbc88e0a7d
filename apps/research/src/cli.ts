#!/usr/bin/env node
import { appOptions, appVersion, examplesHelp, runThreadApp } from "@framework/cli-kit";
import { Command, InvalidArgumentError } from "commander";
import { runResearch } from "./run-research.js";

/** Searched when the command line gives no topic. */
const demoTopic = "tool-using LLM agents";

interface ResearchFlags {
  maxResults: number;
  mcp: string[];
}

function positiveInteger(value: string): number {
  const parsed = Number(value);
  if (!Number.isInteger(parsed) || parsed < 1 || parsed > 100) {
    throw new InvalidArgumentError("expected a whole number from 1 to 100");
  }
  return parsed;
}

const program = new Command()
  .name("framework-research")
  .version(appVersion(import.meta.url))
  .addHelpText(
    "after",
    examplesHelp([
      {
        command: "pnpm research --offline",
        does: "the demo, with sample papers and a scripted model",
      },
      {
        command: 'pnpm research -n 3 "retrieval augmented generation"',
        does: "three arXiv papers on a topic, summarised",
      },
    ]),
  )
  .description("The paper-research agent: finds arXiv papers on a topic and answers with them.")
  .argument("[topic...]", `what to search for (default: "${demoTopic}")`)
  .option("-n, --max-results <n>", "how many papers to ask for", positiveInteger, 5)
  .option(
    "--mcp <command>",
    'also give the agent the tools of an MCP server started with this command (repeatable), e.g. --mcp "npx -y @modelcontextprotocol/server-filesystem ./papers"',
    (command: string, previous: string[]) => [...previous, command],
    [] as string[],
  );
const sharedOptions = appOptions(program);

await program
  .action(async (words: string[], flags: ResearchFlags) => {
    process.exitCode = await runThreadApp({
      app: "research",
      ...sharedOptions(),
      startOffline: () => import("./offline/start-offline.js").then((m) => m.startOffline()),
      main: (run, thread) =>
        runResearch(run, {
          topic: words.join(" ").trim() || demoTopic,
          maxResults: flags.maxResults,
          mcpServers: flags.mcp,
          ...thread,
        }),
    });
  })
  .parseAsync();
