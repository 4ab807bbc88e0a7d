import type { Logger } from "@framework/core";
import { getDefaultLogger, setDefaultLogger } from "@framework/core";
import { afterEach, describe, expect, it } from "vitest";
import { loggingMessage } from "./logging-message.js";

function capture(): Logger & { lines: string[] } {
  const lines: string[] = [];
  const push = (message: string) => {
    lines.push(message);
  };
  return { lines, debug: push, info: push, warn: push, error: push };
}

const banner = (name: string) => `============ ${name} Response ============`;

describe("loggingMessage", () => {
  const original = getDefaultLogger();
  afterEach(() => {
    setDefaultLogger(original);
  });

  it("as a decorator, logs the banner and the returned dict through the instance's logger", async () => {
    const logger = capture();
    class MarketDataProvider {
      readonly logger = logger;

      @loggingMessage
      async exec(state: { ticker: string }) {
        return { equity_insight: `${state.ticker} looks strong` };
      }
    }

    const result = await new MarketDataProvider().exec({ ticker: "AAPL" });

    expect(result).toEqual({ equity_insight: "AAPL looks strong" });
    expect(logger.lines).toEqual([
      banner("MarketDataProvider"),
      JSON.stringify({ equity_insight: "AAPL looks strong" }, null, 2),
    ]);
  });

  it("names the subclass that runs, not the class that declared the method", async () => {
    const logger = capture();
    class BaseNode {
      readonly logger = logger;

      @loggingMessage
      exec() {
        return { ok: true };
      }
    }
    class RecommenderAgent extends BaseNode {}

    new RecommenderAgent().exec();

    expect(logger.lines[0]).toBe(banner("RecommenderAgent"));
  });

  it("as a plain wrapper, logs to the default logger when the instance has none", async () => {
    const logger = capture();
    setDefaultLogger(logger);
    class CryptoTracker {
      exec = loggingMessage(async function (this: CryptoTracker, state: { n: number }) {
        return {
          crypto_insight: `n=${state.n}`,
          messages: { role: "CryptoTracker", content: "x" },
        };
      });
    }

    const result = await new CryptoTracker().exec({ n: 2 });

    expect(result.crypto_insight).toBe("n=2");
    expect(logger.lines[0]).toContain(banner("CryptoTracker"));
    expect(logger.lines[1]).toContain('"crypto_insight": "n=2"');
    expect(logger.lines[1]).toContain('"role": "CryptoTracker"');
  });

  it("names a wrapped function called without an instance after the function", () => {
    const logger = capture();
    setDefaultLogger(logger);
    const recommender = loggingMessage(function Recommender() {
      return { final_recommendation: "hold" };
    });
    recommender();
    expect(logger.lines[0]).toContain(banner("Recommender"));
  });

  it("logs nothing when the method throws", async () => {
    const logger = capture();
    class Failing {
      readonly logger = logger;
      exec = loggingMessage(async (): Promise<object> => {
        throw new Error("no");
      });
    }
    await expect(new Failing().exec()).rejects.toThrow("no");
    expect(logger.lines).toEqual([]);
  });
});
