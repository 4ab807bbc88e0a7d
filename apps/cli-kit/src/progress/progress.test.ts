import { describe, expect, it } from "vitest";
import { Progress } from "./progress.js";

function recorder(isTTY: boolean) {
  const chunks: string[] = [];
  return { chunks, stream: { isTTY, columns: 100, write: (chunk: string) => chunks.push(chunk) } };
}

const clear = "\r\x1b[2K";

function feed(progress: Progress, advance: () => void) {
  progress.nodeStarted("market");
  advance();
  progress.agentEvent("market", { type: "step-start", step: 1 });
  progress.agentEvent("market", {
    type: "tool-call",
    toolCallId: "c1",
    toolName: "fetch_stock_data",
    arguments: '{"symbol":"AAPL"}',
  });
  progress.agentEvent("market", {
    type: "tool-result",
    toolCallId: "c1",
    toolName: "fetch_stock_data",
    output: "Error: boom",
    isError: true,
    durationMs: 12.4,
  });
  progress.agentEvent("market", { type: "retry", attempt: 1, delayMs: 2000, status: 429 });
  progress.agentEvent("market", { type: "text-delta", text: "not progress" });
  progress.step("market", "deep search: outline of 2 chapters");
  progress.info("what the demo fakes");
  progress.logger("market").info("Tool calling iteration 1/10");
  progress.logger("market").warn("something odd");
  progress.nodeFinished("market");
  progress.stop();
}

describe("Progress", () => {
  it("off a terminal, writes nothing but warnings and errors by default", () => {
    const { chunks, stream } = recorder(false);
    const progress = new Progress({ stream, now: () => 0 });
    feed(progress, () => {});
    progress.note("thread t1");
    expect(chunks).toEqual(["[   0.0s] market WARN something odd\n", "thread t1\n"]);
  });

  it("writes plain timestamped lines off a terminal with events, from node and agent events", () => {
    const { chunks, stream } = recorder(false);
    let now = 0;
    const progress = new Progress({ stream, now: () => now, events: true });
    feed(progress, () => {
      now = 1500;
    });
    expect(chunks).toEqual([
      "[   0.0s] market node market started\n",
      "[   1.5s] market step 1: asking the model\n",
      '[   1.5s] market → fetch_stock_data {"symbol":"AAPL"}\n',
      "[   1.5s] market ✗ fetch_stock_data failed in 12 ms\n",
      "[   1.5s] market model busy (HTTP 429), retry 1 in 2.0 s\n",
      "[   1.5s] market deep search: outline of 2 chapters\n",
      "what the demo fakes\n",
      "[   1.5s] market WARN something odd\n",
      "[   1.5s] market node market finished\n",
    ]);
  });

  it("shows INFO log lines only at the info level", () => {
    const { chunks, stream } = recorder(false);
    const progress = new Progress({ stream, now: () => 0, level: "info" });
    progress.logger("app").info("I'am chatting with alice");
    progress.logger("app").debug("hidden below the level");
    expect(chunks).toEqual(["[   0.0s] app INFO I'am chatting with alice\n"]);
  });

  it("on a terminal, keeps one spinner line naming what each node does, and permanent lines for tool calls", () => {
    const { chunks, stream } = recorder(true);
    let now = 0;
    const progress = new Progress({ stream, now: () => now });
    expect(progress.live).toBe(true);
    progress.nodeStarted("market");
    progress.nodeStarted("crypto");
    now = 2000;
    progress.agentEvent("market", {
      type: "tool-call",
      toolCallId: "c1",
      toolName: "fetch_stock_data",
      arguments: { symbol: "AAPL" },
    });
    progress.agentEvent("crypto", { type: "step-start", step: 2 });
    progress.logger("crew").info("No authentication card provided, skipping authentication");
    // A permanent line redraws the spinner under it at once.
    progress.logger("crypto").warn("Chat completion failed, retrying in 1000 ms");
    const screen = chunks.join("");
    expect(screen).toContain('  market → fetch_stock_data {"symbol":"AAPL"}\n');
    expect(screen).toContain("! crypto: Chat completion failed, retrying in 1000 ms\n");
    expect(screen).not.toContain("skipping authentication");
    // Only scopes doing something are shown: the crew's own log line adds none.
    expect(screen.slice(screen.lastIndexOf(clear) + clear.length)).toMatch(
      /^. 2\.0s market: running fetch_stock_data · crypto: asking the model \(step 2\)$/,
    );
    progress.step("market", "deep search: outline of 2 chapters");
    progress.nodeFinished("market");
    progress.stop();
    const after = chunks.join("");
    expect(after).toContain("  market deep search: outline of 2 chapters\n");
    // A terminal gets no plain timestamped lines: the spinner and permanent lines say it all.
    expect(after).not.toMatch(/\[\s*\d+\.\ds\]/);
    expect(after).toContain("✓ market finished at 2.0s\n");
    // Stopping clears the spinner so the answer starts on a clean line.
    expect(after.endsWith(clear)).toBe(true);
  });

  it("on a terminal, shows a scope's steps on the spinner line until they end", () => {
    const { chunks, stream } = recorder(true);
    const progress = new Progress({ stream, now: () => 0 });
    const spinner = () => {
      const screen = chunks.join("");
      return screen.slice(screen.lastIndexOf(clear) + clear.length);
    };
    progress.step("deep-search", "writing chapter 1");
    expect(spinner()).toMatch(/deep-search: writing chapter 1$/);
    progress.endSteps("deep-search");
    progress.agentEvent("finance", { type: "step-start", step: 2 });
    progress.logger("finance").warn("redraw");
    expect(spinner()).toMatch(/finance: asking the model \(step 2\)$/);
    progress.stop();
  });

  it("clears the spinner while a question is asked, and draws it again after", async () => {
    const { chunks, stream } = recorder(true);
    const progress = new Progress({ stream, now: () => 0 });
    progress.nodeStarted("market");
    progress.note("a permanent line draws the spinner");
    let during = "";
    const answer = await progress.pauseWhile(async () => {
      chunks.length = 0;
      // Nothing touches the screen while the question is open, not even a permanent line.
      progress.note("market wants to run search_api");
      during = chunks.join("");
      return true;
    });
    expect(answer).toBe(true);
    expect(during).toBe("market wants to run search_api\n");
    progress.note("after the question");
    const screen = chunks.join("");
    expect(screen).toContain(`after the question\n${clear}`);
    expect(screen.slice(screen.lastIndexOf(clear) + clear.length)).toMatch(
      /^. 0\.0s market: starting$/,
    );
    progress.stop();
  });
});
