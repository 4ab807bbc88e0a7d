import { ConfigurationError } from "@framework/core";
import { createCapturingLogger } from "@framework/testing";
import type { WebSearch } from "@framework/tools-websearch";
import { describe, expect, it } from "vitest";
import { ChapterPrefetch } from "./chapter-prefetch.js";

const page = (content: string) => ({
  title: content,
  url: `https://x.example.com/${content}`,
  content,
  score: 1,
});

function recordingSearch(fail: (query: string) => unknown = () => undefined) {
  const started: string[] = [];
  const search: WebSearch = async (query) => {
    started.push(query);
    const error = fail(query);
    if (error) throw error;
    return { results: [page(query)] };
  };
  return { search, started };
}

const options = (search: WebSearch) => ({
  search,
  concurrency: 2,
  logger: createCapturingLogger(),
});

describe("ChapterPrefetch", () => {
  it("searches chapters in order and hands each chapter's outcomes out once", async () => {
    const { search, started } = recordingSearch();
    const prefetch = new ChapterPrefetch();
    const run = {};
    prefetch.start(run, [["a1", "a2"], ["b1"]], options(search));

    const second = await prefetch.take(run, 1, ["b1"]);
    expect(second).toEqual([
      { query: "b1", status: "ok", contents: ["b1"], urls: ["https://x.example.com/b1"] },
    ]);
    expect(started).toEqual(["a1", "a2", "b1"]);
    expect(prefetch.take(run, 1, ["b1"])).toBeUndefined();
    expect(await prefetch.take(run, 0, ["a1", "a2"])).toHaveLength(2);
  });

  it("gives nothing for another run or for queries that changed", () => {
    const { search } = recordingSearch();
    const prefetch = new ChapterPrefetch();
    const run = {};
    prefetch.start(run, [["a1"]], options(search));
    expect(prefetch.take({}, 0, ["a1"])).toBeUndefined();
    expect(prefetch.take(run, 0, ["other"])).toBeUndefined();
  });

  it("surfaces a fatal failure at the chapter that takes it, and still searches the next", async () => {
    const { search, started } = recordingSearch((query) =>
      query === "a1"
        ? new ConfigurationError({ setting: "TAVILY_API_KEY", message: "no key" })
        : undefined,
    );
    const prefetch = new ChapterPrefetch();
    const run = {};
    prefetch.start(run, [["a1"], ["b1"]], options(search));
    await expect(prefetch.take(run, 0, ["a1"])).rejects.toSatisfy(ConfigurationError.isInstance);
    expect(await prefetch.take(run, 1, ["b1"])).toHaveLength(1);
    expect(started).toEqual(["a1", "b1"]);
  });

  it("keeps a failed search as a failed outcome, as a step's own search would", async () => {
    const { search } = recordingSearch((query) =>
      query === "a2" ? new Error("timeout") : undefined,
    );
    const prefetch = new ChapterPrefetch();
    const run = {};
    prefetch.start(run, [["a1", "a2"]], options(search));
    const outcomes = await prefetch.take(run, 0, ["a1", "a2"]);
    expect(outcomes?.map((outcome) => outcome.status)).toEqual(["ok", "failed"]);
  });
});
