import { AbortedError, ConfigurationError } from "@framework/core";
import { createCapturingLogger } from "@framework/testing";
import { SearchError, type WebSearch, type WebSearchResponse } from "@framework/tools-websearch";
import { describe, expect, it } from "vitest";
import { isFatalSearchError, searchConcurrently } from "./concurrent-search.js";

const page = (content: string) => ({
  title: content,
  url: `https://x.example.com/${content}`,
  content,
  score: 1,
});

interface Pending {
  query: string;
  resolve: (response: WebSearchResponse) => void;
  reject: (error: unknown) => void;
}

// A search whose calls stay open until the test settles them, recording what is in flight.
function controlledSearch() {
  const pending: Pending[] = [];
  const log: string[] = [];
  let inFlight = 0;
  let maxInFlight = 0;
  const search: WebSearch = (query) => {
    inFlight += 1;
    maxInFlight = Math.max(maxInFlight, inFlight);
    log.push(`start ${query}`);
    return new Promise<WebSearchResponse>((resolve, reject) => {
      const done = () => {
        inFlight -= 1;
        log.push(`end ${query}`);
      };
      pending.push({
        query,
        resolve: (response) => {
          done();
          resolve(response);
        },
        reject: (error) => {
          done();
          reject(error);
        },
      });
    });
  };
  const settle = async (query: string, outcome: WebSearchResponse | Error) => {
    const index = pending.findIndex((entry) => entry.query === query);
    const [entry] = pending.splice(index, 1);
    if (outcome instanceof Error) entry!.reject(outcome);
    else entry!.resolve(outcome);
    // Let the worker pick up the next query.
    await new Promise((resolve) => setImmediate(resolve));
  };
  return { search, log, pending, settle, maxInFlight: () => maxInFlight };
}

describe("searchConcurrently", () => {
  it("keeps at most `concurrency` searches in flight and returns outcomes in query order", async () => {
    const control = controlledSearch();
    const logger = createCapturingLogger();
    const ended: string[] = [];
    const running = searchConcurrently(["a", "b", "c", "d", "e"], {
      search: control.search,
      concurrency: 2,
      logger,
      onOutcome: (outcome) => ended.push(outcome.query),
    });
    expect(control.pending.map((entry) => entry.query)).toEqual(["a", "b"]);
    await control.settle("b", { results: [page("b1"), page("b2"), page("b3")] });
    expect(control.pending.map((entry) => entry.query)).toEqual(["a", "c"]);
    await control.settle("c", { results: [page("c1")] });
    await control.settle("a", { results: [] });
    await control.settle("e", { results: [page("e1")] });
    await control.settle("d", { results: [page("d1")] });

    expect(await running).toEqual([
      { query: "a", status: "ok", contents: [], urls: [] },
      {
        query: "b",
        status: "ok",
        contents: ["b1", "b2"],
        urls: ["https://x.example.com/b1", "https://x.example.com/b2"],
      },
      { query: "c", status: "ok", contents: ["c1"], urls: ["https://x.example.com/c1"] },
      { query: "d", status: "ok", contents: ["d1"], urls: ["https://x.example.com/d1"] },
      { query: "e", status: "ok", contents: ["e1"], urls: ["https://x.example.com/e1"] },
    ]);
    expect(ended).toEqual(["b", "c", "a", "e", "d"]);
    expect(control.maxInFlight()).toBe(2);
  });

  it("with concurrency 1, searches one query after the other in query order", async () => {
    const log: string[] = [];
    const search: WebSearch = async (query) => {
      log.push(`start ${query}`);
      await new Promise((resolve) => setImmediate(resolve));
      log.push(`end ${query}`);
      return { results: [page(query)] };
    };
    await searchConcurrently(["a", "b", "c"], {
      search,
      concurrency: 1,
      logger: createCapturingLogger(),
    });
    expect(log).toEqual(["start a", "end a", "start b", "end b", "start c", "end c"]);
  });

  it("asks for 2 results per query and passes the signal", async () => {
    const seen: unknown[] = [];
    const signal = new AbortController().signal;
    const search: WebSearch = async (_query, options) => {
      seen.push(options);
      return { results: [] };
    };
    await searchConcurrently(["a"], {
      search,
      concurrency: 4,
      signal,
      logger: createCapturingLogger(),
    });
    expect(seen).toEqual([{ maxResults: 2, signal }]);
  });

  it("leaves a failed search out, logs a warning and goes on", async () => {
    const logger = createCapturingLogger();
    const search: WebSearch = async (query) => {
      if (query === "b") {
        throw new SearchError({ reason: "network", message: "Could not reach Tavily: ECONNRESET" });
      }
      if (query === "c") throw new Error("socket hang up");
      return { results: [page(query)] };
    };
    const outcomes = await searchConcurrently(["a", "b", "c"], { search, concurrency: 4, logger });
    expect(outcomes).toEqual([
      { query: "a", status: "ok", contents: ["a"], urls: ["https://x.example.com/a"] },
      { query: "b", status: "failed", error: "Could not reach Tavily: ECONNRESET" },
      { query: "c", status: "failed", error: "socket hang up" },
    ]);
    expect(logger.entries).toEqual([
      {
        level: "warn",
        message: 'Search failed, leaving out "b": Could not reach Tavily: ECONNRESET',
      },
      { level: "warn", message: 'Search failed, leaving out "c": socket hang up' },
    ]);
  });

  it("rejects on a fatal failure and starts no further search", async () => {
    const started: string[] = [];
    const missingKey = new ConfigurationError({
      setting: "TAVILY_API_KEY",
      message: "TAVILY_API_KEY is not set.",
    });
    const search: WebSearch = async (query) => {
      started.push(query);
      throw missingKey;
    };
    await expect(
      searchConcurrently(["a", "b", "c"], {
        search,
        concurrency: 1,
        logger: createCapturingLogger(),
      }),
    ).rejects.toBe(missingKey);
    expect(started).toEqual(["a"]);
  });

  it("returns nothing for no queries", async () => {
    const search: WebSearch = async () => ({ results: [] });
    await expect(
      searchConcurrently([], { search, concurrency: 4, logger: createCapturingLogger() }),
    ).resolves.toEqual([]);
  });
});

describe("isFatalSearchError", () => {
  it("stops the run for a missing or rejected key and for cancellation only", () => {
    expect(
      isFatalSearchError(new ConfigurationError({ setting: "TAVILY_API_KEY", message: "x" })),
    ).toBe(true);
    expect(isFatalSearchError(new AbortedError({ operation: "web search" }))).toBe(true);
    expect(isFatalSearchError(new SearchError({ reason: "unauthorized", message: "401" }))).toBe(
      true,
    );
    expect(isFatalSearchError(new SearchError({ reason: "rate_limited", message: "429" }))).toBe(
      false,
    );
    expect(isFatalSearchError(new SearchError({ reason: "quota_exceeded", message: "432" }))).toBe(
      false,
    );
    expect(isFatalSearchError(new Error("boom"))).toBe(false);
  });
});
