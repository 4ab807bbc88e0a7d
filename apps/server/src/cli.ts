#!/usr/bin/env node
import { appOptionsHelp, appVersion, examplesHelp, runApp } from "@framework/cli-kit";
import { DEFAULT_DATABASE_PATH } from "@framework/server";
import { Command, InvalidArgumentError } from "commander";
import { serveReferenceAgents } from "./serve-reference-agents.js";

interface ServeFlags {
  port: number;
  host: string;
  db: string;
  postgres?: string;
  schema: string;
  offline?: boolean;
  studio?: boolean;
  verbose?: boolean;
}

function portNumber(value: string): number {
  const parsed = Number(value);
  if (!/^\d+$/.test(value) || parsed > 65_535) {
    throw new InvalidArgumentError("expected a port number from 0 (any free port) to 65535");
  }
  return parsed;
}

await new Command()
  .name("framework-serve")
  .version(appVersion(import.meta.url))
  .addHelpText(
    "after",
    examplesHelp([
      {
        command: "pnpm serve --offline",
        does: "the three agents over HTTP, on sample data and a scripted model",
      },
      {
        command: "pnpm studio --offline",
        does: "the same with the studio, at http://127.0.0.1:8123/studio/",
      },
      {
        command: "pnpm serve --offline --postgres postgres://127.0.0.1:5432/agents --port 8124",
        does: "another instance on the same database: any of them answers any request",
      },
      {
        command: "pnpm serve --port 9000",
        does: "the three agents on a real model (.env), at http://127.0.0.1:9000",
      },
    ]),
  )
  .description(
    "Serves the reference agents over HTTP (LangGraph's Agent Protocol): research (papers), finance (stocks and deep-search reports) and advisory (the multi-market crew).",
  )
  .option("--port <n>", "the port to listen on (0: any free port)", portNumber, 8123)
  .option(
    "--host <address>",
    "the address to listen on: this machine only, as there is no authentication",
    "127.0.0.1",
  )
  .option(
    "--db <file>",
    "the SQLite file of threads, runs and checkpoints; a restart on the same file keeps them",
    DEFAULT_DATABASE_PATH,
  )
  .option(
    "--postgres <url>",
    "keep threads, runs, their events and checkpoints in PostgreSQL instead of --db: instances on one database serve the same threads and runs",
  )
  .option("--schema <name>", "the PostgreSQL schema of the tables, with --postgres", "public")
  .option("--studio", "serve the studio too, at /studio/ (runs, threads, approvals, traces)")
  .option("--offline", appOptionsHelp.offline)
  .option("--verbose", appOptionsHelp.verbose)
  .action(async (flags: ServeFlags) => {
    process.exitCode = await runApp({
      offline: flags.offline === true,
      verbose: flags.verbose === true,
      startOffline: () => import("./offline/start-offline.js").then((m) => m.startOffline()),
      main: (run) =>
        serveReferenceAgents(run, {
          port: flags.port,
          host: flags.host,
          databasePath: flags.db,
          ...(flags.postgres === undefined
            ? {}
            : { postgres: { connectionString: flags.postgres, schema: flags.schema } }),
          studio: flags.studio === true,
        }),
    });
  })
  .parseAsync();
