import type { AppRun } from "@framework/cli-kit";
import { createServerWorker } from "@framework/server-queue";
import { referenceAssistantNames, referenceAssistants } from "./reference-assistants.js";
import { stopRequest } from "./serve-reference-agents.js";

/** Where `pnpm serve --worker` takes its runs from. */
export interface WorkRequest {
  /** The database the instances (`pnpm serve --queue`) keep threads and runs in. */
  postgres: { connectionString: string; schema: string };
  /** The Redis and BullMQ queue they wake workers through. */
  redis: string;
  queueName: string;
  /** How many threads it executes at once (`--concurrency`). */
  concurrency: number;
}

/** The line that says the worker is up: its queue and what it executes. */
export function workingLine(queueName: string, offline: boolean): string {
  const names = referenceAssistantNames.join(", ");
  return `working on queue ${queueName} — assistants: ${names}${offline ? " (offline: sample data)" : ""}`;
}

/**
 * Executes the runs `pnpm serve --queue` instances submit, for the reference agents, until
 * Ctrl-C or SIGTERM; then drains as a server does (runs stop at a checkpoint and another
 * worker continues them).
 */
export async function workReferenceAgents(run: AppRun, request: WorkRequest): Promise<void> {
  const stop = stopRequest(run.signal);
  try {
    const assistants = await referenceAssistants(run.llm, {
      approveAll: run.offline,
      loggerFor: (scope) => run.progress.logger(scope),
    });
    const worker = createServerWorker({
      ...assistants,
      queue: {
        redis: request.redis,
        postgres: request.postgres.connectionString,
        schema: request.postgres.schema,
        queueName: request.queueName,
      },
      concurrency: request.concurrency,
      logger: run.progress.logger("worker"),
    });
    try {
      await worker.ready;
      run.print(workingLine(request.queueName, run.offline));
      await stop.requested;
      run.progress.note(
        "stopping: running runs reach a checkpoint, and another worker continues them",
      );
    } finally {
      await worker.close();
    }
  } finally {
    stop.dispose();
  }
}
