import { PostgresSaver } from "@framework/checkpoint-postgres";
import type { AppRun } from "@framework/cli-kit";
import { ConfigurationError } from "@framework/core";
import { CrewQueue, CrewWorker } from "@framework/crew-queue";
import { createTradingCrew } from "./create-trading-crew.js";
import { type CrewRequest, printCrewResult, unattendedApproval } from "./run-crew.js";
import type { Trading } from "./trading-state.js";

/** The name runs of this app's crew are submitted under. */
export const advisoryCrew = "advisory";

/** Where the queue lives: Redis for the jobs, Postgres for runs and checkpoints. */
function queueConnection(env: NodeJS.ProcessEnv = process.env) {
  const redisUrl = env.FRAMEWORK_REDIS_URL;
  const postgresUrl = env.FRAMEWORK_POSTGRES_URL;
  for (const [setting, value] of [
    ["FRAMEWORK_REDIS_URL", redisUrl],
    ["FRAMEWORK_POSTGRES_URL", postgresUrl],
  ] as const) {
    if (!value) {
      throw new ConfigurationError({
        setting,
        message: `--worker and --queue need ${setting} (see .env.example; \`pnpm services:start\` starts both servers locally)`,
      });
    }
  }
  const checkpointer = new PostgresSaver({ connectionString: postgresUrl! });
  return { connection: { url: redisUrl! }, checkpointer };
}

/**
 * `--worker`: takes advisory crew runs from the queue, `concurrency` at a time, until Ctrl-C
 * or SIGTERM, then closes gracefully (runs in flight finish, or are checkpointed and handed
 * back to the queue). Nobody can be asked in a worker, so the tools that ask first run only
 * with `approveAll` (`--yes`) and are declined otherwise.
 */
export async function runCrewWorker(
  run: AppRun,
  options: { concurrency: number; approveAll: boolean },
): Promise<void> {
  const { connection, checkpointer } = queueConnection();
  const worker = new CrewWorker({
    connection,
    checkpointer,
    concurrency: options.concurrency,
    logger: run.progress.logger("worker"),
    crews: {
      [advisoryCrew]: async (context) =>
        (
          await createTradingCrew({
            llm: run.llm,
            loggerFor: (scope) => run.progress.logger(scope),
            checkpointer: context.checkpointer,
            approveToolCall: unattendedApproval(run, options.approveAll),
          })
        ).crew,
    },
  });
  try {
    await worker.start();
    run.progress.note(
      `worker ${worker.id} takes "${advisoryCrew}" runs (concurrency ${options.concurrency}); Ctrl-C or SIGTERM stops it`,
    );
    await new Promise<void>((resolve) => {
      if (run.signal.aborted) resolve();
      run.signal.addEventListener("abort", () => resolve(), { once: true });
      process.once("SIGTERM", () => resolve());
    });
    run.progress.note(`worker ${worker.id} closing`);
  } finally {
    await worker.close();
    await checkpointer.close();
  }
}

/**
 * `--queue`: submits the query as a run of the advisory crew (after the thread's current run,
 * if it has one), shows its nodes as whichever worker runs them, and prints the report. Ctrl-C
 * cancels the run (resumable).
 */
export async function submitToQueue(run: AppRun, request: CrewRequest): Promise<void> {
  const { connection, checkpointer } = queueConnection();
  const queue = new CrewQueue({
    connection,
    checkpointer,
    logger: run.progress.logger("queue"),
  });
  try {
    const submitted = await queue.submit(
      advisoryCrew,
      {
        query: request.query,
        ...(request.threadId === undefined ? {} : { threadId: request.threadId }),
        ...(request.userId === undefined ? {} : { userId: request.userId }),
      },
      { ifBusy: "queue" },
    );
    run.progress.note(
      `run ${submitted.runId} ${submitted.status} on thread ${submitted.threadId} (continue it with --thread ${submitted.threadId})`,
    );
    const cancel = () => void queue.cancel(submitted.runId);
    run.signal.addEventListener("abort", cancel, { once: true });
    for await (const event of queue.events(submitted.runId)) {
      if (event.type === "node_start") run.progress.nodeStarted(event.node);
      else if (event.type === "node_end") run.progress.nodeFinished(event.node);
      else if (event.status === "running") run.progress.note(`taken by worker ${event.worker}`);
    }
    run.signal.removeEventListener("abort", cancel);
    const final = (await queue.result(submitted.runId)) as Trading;
    printCrewResult(run, final, request.json);
  } finally {
    await queue.close();
    await checkpointer.close();
  }
}
