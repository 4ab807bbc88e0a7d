import { describe, expect, it } from "vitest";
import { parseJsonToolCalls } from "./json-tool-call-parser.js";

const specCall = {
  tool_name: "paper_research",
  tool_type: "module",
  module_path: "@framework/tools-papers",
  arguments: { topic: "agents", max_results: 3 },
};

describe("parseJsonToolCalls", () => {
  it("reads the specification's tool-call object", () => {
    expect(parseJsonToolCalls(JSON.stringify(specCall))).toEqual([specCall]);
  });

  it("finds the object inside prose and code fences", () => {
    const text = `Sure! I will look that up.\n\n\`\`\`json\n${JSON.stringify(specCall, null, 2)}\n\`\`\`\nLet me know.`;
    expect(parseJsonToolCalls(text)).toEqual([specCall]);
  });

  it("finds a bare object surrounded by prose, braces inside strings included", () => {
    const call = { tool_name: "search_api", arguments: { query: "what is {x} and [y]?" } };
    const text = `Thinking... ${JSON.stringify(call)} -- done`;
    expect(parseJsonToolCalls(text)).toEqual([call]);
  });

  it("reads a list of calls, and a tool_calls wrapper", () => {
    const second = { tool_name: "get_current_time", arguments: {} };
    expect(parseJsonToolCalls(JSON.stringify([specCall, second]))).toEqual([specCall, second]);
    expect(parseJsonToolCalls(JSON.stringify({ tool_calls: [second] }))).toEqual([second]);
  });

  it("keeps arguments given as a JSON string for the executor to decode", () => {
    const text = JSON.stringify({ tool_name: "t", arguments: '{"a": 1}' });
    expect(parseJsonToolCalls(text)).toEqual([{ tool_name: "t", arguments: '{"a": 1}' }]);
  });

  it("accepts the common name/parameters and function-wrapper variants", () => {
    expect(parseJsonToolCalls('{"name": "t", "parameters": {"a": 1}}')).toEqual([
      { tool_name: "t", arguments: { a: 1 } },
    ]);
    expect(
      parseJsonToolCalls('{"type":"function","function":{"name":"t","arguments":"{}"}}'),
    ).toEqual([{ tool_name: "t", arguments: "{}" }]);
  });

  it("finds a call after an opening bracket that prose never closed", () => {
    const call = { tool_name: "t", arguments: { a: 1 } };
    expect(parseJsonToolCalls(`Step [1 of 2: ${JSON.stringify(call)}`)).toEqual([call]);
    expect(parseJsonToolCalls(`Oops} ] { [ ${JSON.stringify(call)}`)).toEqual([call]);
  });

  it("treats text nested deeper than any call as no call, without exhausting the stack", () => {
    const deep = `${"[".repeat(100_000)}${"]".repeat(100_000)}`;
    expect(parseJsonToolCalls(deep)).toEqual([]);
    let wrapped: unknown = { tool_name: "t", arguments: {} };
    for (let i = 0; i < 20; i++) wrapped = { tool_calls: [wrapped] };
    expect(parseJsonToolCalls(JSON.stringify(wrapped))).toEqual([]);
  });

  it("returns no call for plain answers, broken JSON and unrelated JSON", () => {
    expect(parseJsonToolCalls("The answer is 42.")).toEqual([]);
    expect(parseJsonToolCalls('{"tool_name": "t", "arguments": {')).toEqual([]);
    expect(parseJsonToolCalls('Here are numbers: [1, 2, 3] and {"a": 1}')).toEqual([]);
    expect(parseJsonToolCalls("")).toEqual([]);
  });
});
