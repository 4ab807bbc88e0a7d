import { type AppRun, type AppThread, withAppThread } from "@framework/cli-kit";
import { type ToolApprovalRequest, unknownUserId } from "@framework/core";
import { type GraphEvent, resume, type ToolApprovalInterrupt } from "@framework/graph";
import { createTradingCrew } from "./create-trading-crew.js";
import { crewFinalState, renderCrewReport } from "./crew-report.js";
import type { Trading, TradingUpdate } from "./trading-state.js";

/** A person's decision on a tool call a crew node wants to make. */
export type AskApproval = (question: string) => Promise<boolean>;

/** What the command line asks of one crew run. */
export interface CrewRequest {
  query: string;
  userId?: string;
  /** The checkpoint thread to continue; a new thread when absent. */
  threadId?: string;
  /** The checkpoint database (`--db`); see `checkpointDbPath` for the default. */
  db?: string;
  /**
   * Continue the thread's unfinished run (failed, cancelled, killed with its process, or
   * waiting for an approval) instead of asking a new query; finished nodes are not run again.
   */
  resume?: boolean;
  /** Print the crew's final state as JSON (see `crewFinalState`) instead of the report. */
  json: boolean;
  /** Run every tool that asks first without asking (`--yes`). */
  approveAll?: boolean;
  /**
   * Asks the person at the terminal about each tool call that needs approval; the run
   * pauses (an interrupt saved in the thread) until they answer. Without it, and without
   * `approveAll`, such calls are declined, each with a line on standard error saying why.
   */
  ask?: AskApproval;
}

function isToolApproval(value: unknown): value is ToolApprovalInterrupt {
  return (value as { type?: unknown } | null)?.type === "tool-approval";
}

function describeCall(node: string, call: ToolApprovalRequest): string {
  return `${node} wants to run ${call.toolName} ${JSON.stringify(call.arguments)}`;
}

/**
 * How a run that nobody can be asked in (a pipe, CI, a queue worker) decides the tools that
 * ask first: all approved with `approveAll` (`--yes`), otherwise each declined with a line on
 * standard error naming the call and how to allow it.
 */
export function unattendedApproval(
  run: AppRun,
  approveAll: boolean,
): (call: ToolApprovalRequest, node: string) => boolean {
  if (approveAll) return () => true;
  return (call, node) => {
    run.progress.note(
      `declined: ${describeCall(node, call)}; it asks first and there is no terminal to ask at (pass --yes to allow such calls)`,
    );
    return false;
  };
}

/** Prints a finished run: the report, or with `json` its final state (`crewFinalState`). */
export function printCrewResult(run: AppRun, final: Trading, json: boolean): void {
  run.print(json ? JSON.stringify(crewFinalState(final), null, 2) : renderCrewReport(final));
}

/**
 * Runs the crew once on a thread of the app's SQLite checkpoint database, streaming its node
 * events to the progress display, then prints both insights and the final recommendation (or,
 * with `json`, the crew's final state). With `threadId` the run continues that thread's
 * state, from an earlier run or an earlier process; without, it starts a new thread and says
 * its id. Tools that ask first are approved, asked about, or declined as the request says.
 */
export function runCrew(run: AppRun, request: CrewRequest): Promise<void> {
  return withAppThread(run, { app: "crew", ...request }, (thread) =>
    runOnThread(run, request, thread),
  );
}

async function runOnThread(run: AppRun, request: CrewRequest, thread: AppThread): Promise<void> {
  const { ask } = request;
  const { crew } = await createTradingCrew({
    llm: run.llm,
    loggerFor: (scope) => run.progress.logger(scope),
    checkpointer: thread.checkpointer,
    ...(ask && !request.approveAll
      ? {}
      : { approveToolCall: unattendedApproval(run, request.approveAll === true) }),
  });
  const config = {
    configurable: { thread_id: thread.id, user_id: request.userId ?? unknownUserId },
    signal: run.signal,
  };
  let events: AsyncIterable<GraphEvent<Trading, TradingUpdate>> = request.resume
    ? crew.app.stream(null, config)
    : crew.stream(request.query, {
        threadId: thread.id,
        signal: run.signal,
        ...(request.userId === undefined ? {} : { userId: request.userId }),
      });
  for (;;) {
    let final: Trading | undefined;
    let question: { node: string; value: unknown } | undefined;
    for await (const event of events) {
      if (event.type === "node_start") run.progress.nodeStarted(event.node);
      else if (event.type === "node_end") run.progress.nodeFinished(event.node);
      else if (event.type === "agent") run.progress.agentEvent(event.node, event.event);
      else if (event.type === "interrupt") question ??= event;
      else if (event.type === "done") final = event.state;
    }
    if (final) {
      printCrewResult(run, final, request.json);
      return;
    }
    if (!question || !ask || !isToolApproval(question.value)) {
      throw new Error("the crew ended without a final state");
    }
    const { call } = question.value;
    const node = question.node;
    const allowed = await run.progress.pauseWhile(() => ask(`${describeCall(node, call)}. Allow?`));
    if (!allowed) run.progress.note(`declined: ${call.toolName} for ${node}`);
    // The interrupted node runs again from its start, and this answer decides its call.
    events = crew.app.stream(resume(allowed), config);
  }
}
