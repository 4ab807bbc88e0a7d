import type { AppRun } from "@framework/cli-kit";
import { createTradingCrew } from "./create-trading-crew.js";
import { renderCrewReport } from "./crew-report.js";
import type { Trading } from "./trading-state.js";

/** What the command line asks of one crew run. */
export interface CrewRequest {
  query: string;
  userId?: string;
  threadId: string;
  /** Print the final shared state as JSON instead of the report. */
  json: boolean;
}

/**
 * Runs the crew once, streaming its node events to the progress display, then prints both
 * insights and the final recommendation (or, with `json`, the final state).
 */
export async function runCrew(run: AppRun, request: CrewRequest): Promise<void> {
  const { crew } = await createTradingCrew({
    llm: run.llm,
    loggerFor: (scope) => run.progress.logger(scope),
  });
  let final: Trading | undefined;
  const events = crew.stream(request.query, {
    threadId: request.threadId,
    signal: run.signal,
    ...(request.userId === undefined ? {} : { userId: request.userId }),
  });
  for await (const event of events) {
    if (event.type === "node_start") run.progress.nodeStarted(event.node);
    else if (event.type === "node_end") run.progress.nodeFinished(event.node);
    else final = event.state;
  }
  if (!final) throw new Error("the crew ended without a final state");
  run.print(request.json ? JSON.stringify(final, null, 2) : renderCrewReport(final));
}
