/** What a framework log line says about the work in progress. */
export type LogLineMeaning =
  | { kind: "iteration"; iteration: number; limit: number }
  | { kind: "tool_started"; tool: string; arguments: unknown }
  | { kind: "tool_finished"; tool: string }
  | { kind: "tool_failed"; tool: string }
  | { kind: "answered"; iterations: number }
  | { kind: "registering" }
  | { kind: "other" };

const iteration = /^Tool calling iteration (\d+)\/(\d+)/;
const executing = /^Executing tool call: (.*)$/s;
const completed = /^Completed executing (?:module|function) tool ([\w.-]+)\(/;
const failed = /^Tool call ([\w.-]+) failed:/;
const answered = /^No more tool calls needed\. Completed in (\d+) iterations/;
const registering = /^(Registered |Completed registration for module )/;

function parseToolCall(json: string): { tool: string; arguments: unknown } | undefined {
  try {
    const call = JSON.parse(json) as { tool_name?: unknown; arguments?: unknown };
    return typeof call.tool_name === "string"
      ? { tool: call.tool_name, arguments: call.arguments }
      : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Reads one of the framework's log lines (the specification's agent and registry lines) as a
 * progress step. The lines are a stable contract, so progress needs no other hook into the
 * agent loop.
 */
export function describeLogLine(message: string): LogLineMeaning {
  const step = iteration.exec(message);
  if (step) return { kind: "iteration", iteration: Number(step[1]), limit: Number(step[2]) };
  const call = executing.exec(message);
  const parsed = call?.[1] === undefined ? undefined : parseToolCall(call[1]);
  if (parsed) return { kind: "tool_started", ...parsed };
  const done = completed.exec(message);
  if (done?.[1]) return { kind: "tool_finished", tool: done[1] };
  const failure = failed.exec(message);
  if (failure?.[1]) return { kind: "tool_failed", tool: failure[1] };
  const answer = answered.exec(message);
  if (answer) return { kind: "answered", iterations: Number(answer[1]) };
  if (registering.test(message)) return { kind: "registering" };
  return { kind: "other" };
}
