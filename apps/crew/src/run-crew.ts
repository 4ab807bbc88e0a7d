import { randomUUID } from "node:crypto";
import { type AppRun, openAppCheckpointer } from "@framework/cli-kit";
import { createTradingCrew } from "./create-trading-crew.js";
import { renderCrewReport } from "./crew-report.js";
import type { Trading } from "./trading-state.js";

/** What the command line asks of one crew run. */
export interface CrewRequest {
  query: string;
  userId?: string;
  /** The checkpoint thread to continue; a new thread when absent. */
  threadId?: string;
  /** The checkpoint database (`--db`); see `checkpointDbPath` for the default. */
  db?: string;
  /**
   * Continue the thread's unfinished run (failed, cancelled, or killed with its process)
   * instead of asking a new query; finished nodes are not run again.
   */
  resume?: boolean;
  /** Print the final shared state as JSON instead of the report. */
  json: boolean;
}

/**
 * Runs the crew once on a thread of the app's SQLite checkpoint database, streaming its node
 * events to the progress display, then prints both insights and the final recommendation (or,
 * with `json`, the final state). With `threadId` the run continues that thread's state, from
 * an earlier run or an earlier process; without, it starts a new thread and says its id.
 */
export async function runCrew(run: AppRun, request: CrewRequest): Promise<void> {
  const checkpointer = openAppCheckpointer(request.db);
  try {
    const threadId = request.threadId ?? randomUUID();
    if (request.threadId === undefined) {
      run.progress.note(`thread ${threadId} (continue it with --thread ${threadId})`);
    }
    const { crew } = await createTradingCrew({
      llm: run.llm,
      loggerFor: (scope) => run.progress.logger(scope),
      checkpointer,
    });
    const options = {
      threadId,
      signal: run.signal,
      ...(request.userId === undefined ? {} : { userId: request.userId }),
    };
    let final: Trading | undefined;
    if (request.resume) final = await crew.resume(options);
    else {
      for await (const event of crew.stream(request.query, options)) {
        if (event.type === "node_start") run.progress.nodeStarted(event.node);
        else if (event.type === "node_end") run.progress.nodeFinished(event.node);
        else if (event.type === "agent") run.progress.agentEvent(event.node, event.event);
        else if (event.type === "done") final = event.state;
      }
    }
    if (!final) throw new Error("the crew ended without a final state");
    run.print(request.json ? JSON.stringify(final, null, 2) : renderCrewReport(final));
  } finally {
    checkpointer.close();
  }
}

/** Deletes a thread from the app's checkpoint database (`--forget`). */
export async function forgetThread(run: AppRun, threadId: string, db?: string): Promise<void> {
  const checkpointer = openAppCheckpointer(db);
  try {
    await checkpointer.deleteThread(threadId);
    run.print(`thread ${threadId} deleted from ${checkpointer.path}`);
  } finally {
    checkpointer.close();
  }
}
