import { describe, expect, it } from "vitest";
import { Progress } from "./progress.js";

function recorder(isTTY: boolean) {
  const chunks: string[] = [];
  return { chunks, stream: { isTTY, columns: 100, write: (chunk: string) => chunks.push(chunk) } };
}

const clear = "\r\x1b[2K";

describe("Progress", () => {
  it("writes plain timestamped lines off a terminal, node by node", () => {
    const { chunks, stream } = recorder(false);
    let now = 0;
    const progress = new Progress({ stream, now: () => now, level: "info" });
    expect(progress.live).toBe(false);
    progress.nodeStarted("market");
    now = 1500;
    progress.logger("market").info("Tool calling iteration 1/10");
    progress.logger("market").debug("hidden below the level");
    progress.nodeFinished("market");
    progress.stop();
    expect(chunks).toEqual([
      "[   0.0s] market INFO node market started\n",
      "[   1.5s] market INFO Tool calling iteration 1/10\n",
      "[   1.5s] market INFO node market finished\n",
    ]);
  });

  it("on a terminal, keeps one spinner line naming what each node does, and permanent lines for tool calls", () => {
    const { chunks, stream } = recorder(true);
    let now = 0;
    const progress = new Progress({ stream, now: () => now });
    expect(progress.live).toBe(true);
    progress.nodeStarted("market");
    progress.nodeStarted("crypto");
    now = 2000;
    progress
      .logger("market")
      .info('Executing tool call: {"tool_name":"fetch_stock_data","arguments":{"symbol":"AAPL"}}');
    progress.logger("crypto").info("Tool calling iteration 2/10");
    progress.logger("crew").info("No authentication card provided, skipping authentication");
    // A permanent line redraws the spinner under it at once.
    progress.logger("crypto").warn("Chat completion failed, retrying in 1000 ms");
    const screen = chunks.join("");
    expect(screen).toContain('  market → fetch_stock_data {"symbol":"AAPL"}\n');
    expect(screen).toContain("! crypto: Chat completion failed, retrying in 1000 ms\n");
    // Only scopes doing something are shown: the crew's own log line adds none.
    expect(screen.slice(screen.lastIndexOf(clear) + clear.length)).toMatch(
      /^. 2\.0s market: running fetch_stock_data · crypto: asking the model \(step 2\)$/,
    );
    progress.nodeFinished("market");
    progress.stop();
    const after = chunks.join("");
    expect(after).toContain("✓ market finished at 2.0s\n");
    // Stopping clears the spinner so the answer starts on a clean line.
    expect(after.endsWith(clear)).toBe(true);
  });
});
