import type { OpenAIChatRequestBody } from "@framework/testing";
import { describe, expect, it } from "vitest";
import { ChatRequest, callTools } from "./chat-request.js";

const body: OpenAIChatRequestBody = {
  model: "m",
  messages: [
    { role: "system", content: "You are an analyst." },
    { role: "user", content: "How is AAPL?" },
    {
      role: "assistant",
      content: null,
      tool_calls: [
        {
          id: "c1",
          type: "function",
          function: { name: "fetch_stock_data", arguments: '{"symbol":"AAPL"}' },
        },
      ],
    },
    { role: "tool", tool_call_id: "c1", content: "AAPL price table..." },
  ],
  tools: [{ type: "function", function: { name: "fetch_stock_data" } }],
};

describe("ChatRequest", () => {
  it("reads the prompts, the tools offered and the tool results with their calls", () => {
    const request = new ChatRequest(body);
    expect(request.system).toBe("You are an analyst.");
    expect(request.user).toBe("How is AAPL?");
    expect(request.offers("fetch_stock_data")).toBe(true);
    expect(request.offers("search_api")).toBe(false);
    expect(request.toolResults).toEqual([
      { name: "fetch_stock_data", arguments: { symbol: "AAPL" }, content: "AAPL price table..." },
    ]);
    expect(request.called("fetch_stock_data")).toBe(true);
    expect(request.called("search_api")).toBe(false);
  });

  it("reads the tool results of the latest question only, in a continued conversation", () => {
    const continued = new ChatRequest({
      ...body,
      messages: [
        ...body.messages,
        { role: "assistant", content: "AAPL is up." },
        { role: "user", content: "And MSFT?" },
      ],
    });
    expect(continued.correcting).toBe(false);
    expect(continued.user).toBe("And MSFT?");
    expect(continued.toolResults).toEqual([]);
    expect(continued.called("fetch_stock_data")).toBe(false);
  });

  it("reads the turn being corrected when the model is asked to correct its answer", () => {
    const retry = new ChatRequest({
      model: "m",
      messages: [
        ...body.messages,
        { role: "assistant", content: "AAPL is up." },
        { role: "user", content: "Your answer does not match the required JSON Schema." },
      ],
    });
    expect(retry.correcting).toBe(true);
    expect(retry.user).toBe("How is AAPL?");
    expect(retry.called("fetch_stock_data")).toBe(true);
  });

  it("builds a reply asking for tool calls", () => {
    expect(callTools({ name: "get_current_time", arguments: {} })).toEqual({
      toolCalls: [{ name: "get_current_time", arguments: {} }],
    });
  });
});
