import { describe, expect, it } from "vitest";
import { describeLogLine } from "./describe-log-line.js";

describe("describeLogLine", () => {
  it("reads the agent loop's lines as progress steps", () => {
    expect(describeLogLine("Tool calling iteration 2/10")).toEqual({
      kind: "iteration",
      iteration: 2,
      limit: 10,
    });
    expect(
      describeLogLine(
        'Executing tool call: {"tool_name":"fetch_stock_data","tool_type":"module","module_path":"@framework/tools-finance","arguments":{"symbol":"AAPL"}}',
      ),
    ).toEqual({ kind: "tool_started", tool: "fetch_stock_data", arguments: { symbol: "AAPL" } });
    expect(
      describeLogLine('Completed executing function tool fetch_stock_data_vn({"symbol":"FPT"})'),
    ).toEqual({
      kind: "tool_finished",
      tool: "fetch_stock_data_vn",
    });
    expect(describeLogLine("Tool call search_api failed: Unknown tool")).toEqual({
      kind: "tool_failed",
      tool: "search_api",
    });
    expect(describeLogLine("No more tool calls needed. Completed in 3 iterations.")).toEqual({
      kind: "answered",
      iterations: 3,
    });
    expect(
      describeLogLine('Registered get_current_time: {"tool_name":"get_current_time"}'),
    ).toEqual({
      kind: "registering",
    });
  });

  it("leaves other lines alone, including a tool call line that is not JSON", () => {
    expect(describeLogLine("I'am chatting with unknown_user")).toEqual({ kind: "other" });
    expect(describeLogLine("Executing tool call: not json")).toEqual({ kind: "other" });
  });
});
