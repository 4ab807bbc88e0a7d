#!/usr/bin/env node
import { appOptionsHelp, appVersion, examplesHelp, runApp } from "@framework/cli-kit";
import { ConfigurationError } from "@framework/core";
import { DEFAULT_DATABASE_PATH } from "@framework/server";
import { DEFAULT_SERVER_QUEUE_NAME, DEFAULT_WORKER_CONCURRENCY } from "@framework/server-queue";
import { Command, InvalidArgumentError } from "commander";
import { serveReferenceAgents } from "./serve-reference-agents.js";
import { workReferenceAgents } from "./work-reference-agents.js";

interface ServeFlags {
  port: number;
  host: string;
  db: string;
  postgres?: string;
  schema: string;
  queue?: boolean;
  worker?: boolean;
  redis?: string;
  queueName: string;
  concurrency: number;
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

function positiveCount(value: string): number {
  const parsed = Number(value);
  if (!/^\d+$/.test(value) || parsed < 1)
    throw new InvalidArgumentError("expected a whole number from 1");
  return parsed;
}

/** `--queue` and `--worker` need the database and the Redis they meet on, and exclude each other. */
function queueFlags(flags: ServeFlags): { redis: string; postgres: string } | undefined {
  if (!flags.queue && !flags.worker) return undefined;
  const mode = flags.worker ? "--worker" : "--queue";
  if (flags.queue && flags.worker) {
    throw new ConfigurationError({
      setting: "--worker",
      message:
        "--queue (an instance that submits) and --worker (a worker) are two processes: start each with its own command",
    });
  }
  if (flags.postgres === undefined || flags.redis === undefined) {
    throw new ConfigurationError({
      setting: mode,
      message: `${mode} needs --postgres <url> and --redis <url>, the database and the Redis the instances and workers share`,
    });
  }
  if (flags.worker && flags.studio) {
    throw new ConfigurationError({
      setting: "--studio",
      message: "a worker serves no HTTP: start the studio on an instance (--queue --studio)",
    });
  }
  return { redis: flags.redis, postgres: flags.postgres };
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
        command:
          "pnpm serve --offline --queue --postgres postgres://127.0.0.1:5432/agents --redis redis://127.0.0.1:6379",
        does: "an instance that only submits runs, for workers to execute",
      },
      {
        command:
          "pnpm serve --offline --worker --postgres postgres://127.0.0.1:5432/agents --redis redis://127.0.0.1:6379 --concurrency 4",
        does: "a worker executing what the instances submit, four threads at once",
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
  .option(
    "--queue",
    "only submit runs (with --postgres and --redis): workers started with --worker execute them",
  )
  .option(
    "--worker",
    "execute the runs --queue instances submit, serving no HTTP (with --postgres and --redis)",
  )
  .option("--redis <url>", "the Redis that wakes workers, with --queue or --worker")
  .option(
    "--queue-name <name>",
    "the BullMQ queue instances and workers meet on",
    DEFAULT_SERVER_QUEUE_NAME,
  )
  .option(
    "--concurrency <n>",
    "with --worker: how many threads it executes at once",
    positiveCount,
    DEFAULT_WORKER_CONCURRENCY,
  )
  .option("--studio", "serve the studio too, at /studio/ (runs, threads, approvals, traces)")
  .option("--offline", appOptionsHelp.offline)
  .option("--verbose", appOptionsHelp.verbose)
  .action(async (flags: ServeFlags) => {
    process.exitCode = await runApp({
      offline: flags.offline === true,
      verbose: flags.verbose === true,
      startOffline: () => import("./offline/start-offline.js").then((m) => m.startOffline()),
      main: async (run) => {
        const queue = queueFlags(flags);
        if (flags.worker && queue) {
          return workReferenceAgents(run, {
            postgres: { connectionString: queue.postgres, schema: flags.schema },
            redis: queue.redis,
            queueName: flags.queueName,
            concurrency: flags.concurrency,
          });
        }
        return serveReferenceAgents(run, {
          port: flags.port,
          host: flags.host,
          databasePath: flags.db,
          ...(flags.postgres === undefined
            ? {}
            : { postgres: { connectionString: flags.postgres, schema: flags.schema } }),
          ...(queue ? { queue: { redis: queue.redis, queueName: flags.queueName } } : {}),
          studio: flags.studio === true,
        });
      },
    });
  })
  .parseAsync();
