import { AbortedError, ConfigurationError, type Logger } from "@framework/core";
import { MemorySaver } from "@framework/graph";
import {
  createCapturingLogger,
  type FakeTavilyServer,
  type StartFakeTavilyServerOptions,
  startFakeTavilyServer,
  tavilyFaults,
} from "@framework/testing";
import { createTavilySearch, type WebSearch } from "@framework/tools-websearch";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { DeepSearch, type DeepSearchOptions } from "./deep-search.js";
import { EmptyOutlineError } from "./error/empty-outline-error.js";
import type { DeepSearchEvent } from "./events/deep-search-event.js";
import { type DeepSearchScript, deepSearchLLM, stepOf, userText } from "./test-deep-search-llm.js";

// Two numbered chapters among noise; chapter 2 repeats a query of chapter 1.
const outline = [
  "Here is the outline you asked for:",
  "1. Market overview\nbitcoin price today\nbitcoin ETF flows",
  "Chapter ideas we could add later",
  "**3. Bold chapter**\nignored query",
  "2. Risks and outlook\n- crypto regulation 2025\nbitcoin price today",
  "Hope this helps!",
].join("\n\n");

let tavily: FakeTavilyServer;
let logger: ReturnType<typeof createCapturingLogger>;

async function useTavily(options: StartFakeTavilyServerOptions = {}) {
  await tavily?.close();
  tavily = await startFakeTavilyServer(options);
  vi.stubEnv("TAVILY_API_URL", tavily.url);
  vi.stubEnv("TAVILY_API_KEY", tavily.apiKey);
}

beforeEach(async () => {
  logger = createCapturingLogger();
  await useTavily();
});

afterEach(async () => {
  vi.unstubAllEnvs();
  await tavily.close();
});

function setup(script: Partial<DeepSearchScript> = {}, options: Partial<DeepSearchOptions> = {}) {
  const llm = deepSearchLLM({ outline, ...script });
  const deepSearch = new DeepSearch({ llm, logger, ...options });
  return { llm, deepSearch };
}

const searchedQueries = () =>
  tavily.requests.map((request) => (request.json as { query: string }).query);

async function collect(stream: AsyncIterable<DeepSearchEvent>): Promise<DeepSearchEvent[]> {
  const events: DeepSearchEvent[] = [];
  for await (const event of stream) events.push(event);
  return events;
}

describe("DeepSearch", () => {
  it("writes the report in the spec's format, character for character, ending with its sources", async () => {
    const { deepSearch } = setup();
    const report = await deepSearch.streamingResponse("Bitcoin market in 2025", {
      maxRevisions: 1,
    });

    expect(report).toBe(
      "# I. Planning\n" +
        "1. Market overview\n" +
        "bitcoin price today\n" +
        "bitcoin ETF flows\n" +
        "2. Risks and outlook\n" +
        "crypto regulation 2025\n" +
        "\n" +
        "# II. Results\n" +
        "## 1. Market overview \n Text of 1. Market overview, draft 1.\n" +
        "\n" +
        "## 2. Risks and outlook \n Text of 2. Risks and outlook, draft 1.\n" +
        "\n" +
        "# III. Sources\n" +
        "1. https://markets.example.com/crypto/bitcoin-etf-inflows\n" +
        "2. https://research.example.com/onchain/long-term-holders",
    );
  });

  it("plans exactly the numbered chapters and keeps titles and queries in sections once", async () => {
    const { deepSearch } = setup();
    await deepSearch.streamingResponse("Bitcoin market in 2025");

    const { values, status } = await deepSearch.graph.getState();
    expect(status).toBe("done");
    expect(values.plan).toEqual([
      "1. Market overview\nbitcoin price today\nbitcoin ETF flows",
      "2. Risks and outlook\n- crypto regulation 2025\nbitcoin price today",
    ]);
    expect(values.number_of_chapters).toBe(2);
    expect(values.current_chapter_order).toBe(2);
    expect(values.revision_number).toBe(1);
    expect(values.sections).toEqual([
      "1. Market overview",
      "bitcoin price today",
      "bitcoin ETF flows",
      "2. Risks and outlook",
      "crypto regulation 2025",
    ]);
  });

  it("drops chapters beyond maxChapters", async () => {
    const { deepSearch, llm } = setup();
    const report = await deepSearch.streamingResponse("Bitcoin", { maxChapters: 1 });
    expect(report).toBe(
      "# I. Planning\n1. Market overview\nbitcoin price today\nbitcoin ETF flows\n\n# II. Results\n## 1. Market overview \n Text of 1. Market overview, draft 1.\n\n# III. Sources\n1. https://markets.example.com/crypto/bitcoin-etf-inflows\n2. https://research.example.com/onchain/long-term-holders",
    );
    expect(llm.calls.map(stepOf)).toEqual(["planner", "writer"]);
    expect(userText(llm.calls[0]!)).toBe("Bitcoin");
    expect(llm.calls[0]!.messages[0]!.content).toContain("in at most 1 chapters");
  });

  describe("makes the model calls and searches the spec's table implies", () => {
    // N chapters, R drafts each, Q_i queries in chapter i, K queries per critique:
    // model calls = 1 planner + N·R generate + (N·R − 1) reflect + (N·R − 1) research_critique
    //             = 3·N·R − 1
    // searches    = R·ΣQ_i + (N·R − 1)·K
    const queriesPerChapter = [2, 2];
    const chapterCount = queriesPerChapter.length;
    const critiqueQueries = 2;

    it.each([1, 2, 3])("with maxRevisions = %i", async (revisions) => {
      const { deepSearch, llm } = setup();
      // maxChapters = N makes the run's step limit (3·maxChapters·R) as tight as it gets.
      await deepSearch.streamingResponse("Bitcoin", {
        maxChapters: chapterCount,
        maxRevisions: revisions,
      });

      const generateSteps = chapterCount * revisions;
      const expectedSteps = ["planner"];
      for (let step = 1; step <= generateSteps; step++) {
        expectedSteps.push("writer");
        if (step < generateSteps) expectedSteps.push("reflect", "critique-queries");
      }
      expect(llm.calls.map(stepOf)).toEqual(expectedSteps);
      expect(llm.calls).toHaveLength(3 * chapterCount * revisions - 1);

      const total = queriesPerChapter.reduce((sum, q) => sum + q, 0);
      expect(tavily.requests).toHaveLength(
        revisions * total + (generateSteps - 1) * critiqueQueries,
      );
    });
  });

  it("with maxRevisions = 2 revises each chapter once, replacing its draft", async () => {
    const { deepSearch, llm } = setup();
    const events = await collect(deepSearch.stream("Bitcoin", { maxRevisions: 2 }));

    const done = events.at(-1);
    expect(done?.type).toBe("done");
    const state = done?.type === "done" ? done.state : undefined;
    expect(state?.chapters).toEqual([
      "1. Market overview \n Text of 1. Market overview, draft 2.",
      "2. Risks and outlook \n Text of 2. Risks and outlook, draft 2.",
    ]);
    expect(state?.draft).toBe("Text of 2. Risks and outlook, draft 2.");
    expect(
      events.flatMap((e) => (e.type === "chapter-written" ? [`${e.chapter}.${e.revision}`] : [])),
    ).toEqual(["1.1", "1.2", "2.1", "2.2"]);

    const writerRequests = llm.calls.filter((call) => stepOf(call) === "writer").map(userText);
    expect(writerRequests[0]).not.toContain("earlier draft");
    expect(writerRequests[1]).toContain(
      "Your earlier draft of this chapter:\nText of 1. Market overview, draft 1.",
    );
    expect(writerRequests[1]).toContain(
      "The editor's critique of your earlier draft:\nAdd figures for the ETF flows.",
    );
    expect(writerRequests[1]).toContain("Further research prompted by the critique:\n[1] ");
    expect(writerRequests[2]).toContain(
      "The previous chapter, for continuity (do not repeat it):\nText of 1. Market overview, draft 2.",
    );
  });

  it("gives the writer the search contents, the paragraph limit and the outline", async () => {
    const { deepSearch, llm } = setup();
    await deepSearch.streamingResponse("Bitcoin", { maxChapters: 1, maxParagraphsPerChapter: 3 });

    const writer = llm.calls[1]!;
    expect(writer.messages[0]!.content).toContain("Write at most 3 paragraphs");
    const text = userText(writer);
    expect(text).toContain("Chapter to write: 1. Market overview");
    expect(text).toContain(
      "Chapter outline:\n1. Market overview\nbitcoin price today\nbitcoin ETF flows",
    );
    // Two queries, two results each, in query order; both found the same two pages, which the
    // writer reads once, numbered as the report's sources.
    expect(text).toMatch(/Research notes:\n\[1\] .+\n\n\[2\] .+\n\nWrite the chapter\.$/);
    expect(writer.messages[0]!.content).toContain("Cite the note each fact comes from");
    expect(tavily.requests.map((request) => request.json)).toEqual([
      { query: "bitcoin price today", max_results: 2, include_answer: false },
      { query: "bitcoin ETF flows", max_results: 2, include_answer: false },
    ]);
  });

  it("searches the critique's numbered queries, quoted or not, at most maxCriticalQueries", async () => {
    const { deepSearch } = setup({
      queries: [
        "Queries:",
        '1. "bitcoin ETF net flows March 2025"',
        '2. Look up "stablecoin reserve rules"',
        "3. crypto volatility index",
        '- "not numbered"',
      ].join("\n"),
    });
    const events = await collect(deepSearch.stream("Bitcoin", { maxCriticalQueries: 2 }));
    const chapterQueries = ["bitcoin price today", "bitcoin ETF flows", "crypto regulation 2025"];

    expect(events.filter((e) => e.type === "critique-queries")).toEqual([
      {
        type: "critique-queries",
        queries: ["bitcoin ETF net flows March 2025", "stablecoin reserve rules"],
      },
    ]);
    // The second chapter's searches start with the outline, so they may come first.
    expect(
      searchedQueries()
        .filter((query) => !chapterQueries.includes(query))
        .sort(),
    ).toEqual(["bitcoin ETF net flows March 2025", "stablecoin reserve rules"]);
    const { values } = await deepSearch.graph.getState();
    // Both queries found the same two pages; the writer gets each once.
    expect(values.adjustment).toHaveLength(2);
  });

  describe("chapter prefetch", () => {
    it("starts the next chapter's searches before the first chapter is written", async () => {
      const { deepSearch } = setup();
      const events = await collect(deepSearch.stream("Bitcoin", { maxRevisions: 1 }));
      const firstWritten = events.findIndex((e) => e.type === "chapter-written");
      expect(firstWritten).toBeGreaterThan(-1);
      // Searches are recorded by the fake server as they arrive: all three chapter queries
      // come before the first critique's, though chapter 2 is drafted after that critique.
      expect(searchedQueries().slice(0, 3).sort()).toEqual([
        "bitcoin ETF flows",
        "bitcoin price today",
        "crypto regulation 2025",
      ]);
      // Prefetched searches are still reported, at the draft that uses them.
      const reported = events.flatMap((e) =>
        e.type === "search" && e.stage === "chapter" ? [e.query] : [],
      );
      expect(new Set(reported)).toEqual(
        new Set(["bitcoin ETF flows", "bitcoin price today", "crypto regulation 2025"]),
      );
    });

    it("keeps the spec's order with prefetching off or one search at a time", async () => {
      for (const options of [{ prefetchChapterSearches: false }, { searchConcurrency: 1 }]) {
        tavily.requests.length = 0;
        const { deepSearch } = setup({}, options);
        await collect(deepSearch.stream("Bitcoin", { maxRevisions: 1 }));
        const searched = searchedQueries();
        expect(searched.slice(0, 2).sort(), JSON.stringify(options)).toEqual([
          "bitcoin ETF flows",
          "bitcoin price today",
        ]);
        expect(searched.indexOf("crypto regulation 2025")).toBeGreaterThan(2);
      }
    });
  });

  describe("searches of one step", () => {
    const recorded =
      (log: string[], search: WebSearch): WebSearch =>
      async (query, options) => {
        log.push(`start ${query}`);
        try {
          return await search(query, options);
        } finally {
          log.push(`end ${query}`);
        }
      };
    const threeQueries =
      "1. Market overview\nbitcoin price today\nbitcoin ETF flows\nethereum fees";

    it("overlap in time, through the real Tavily client, and keep query order", async () => {
      const log: string[] = [];
      const { deepSearch, llm } = setup(
        { outline: threeQueries },
        { search: recorded(log, createTavilySearch()) },
      );
      await deepSearch.streamingResponse("Crypto", { maxChapters: 1 });

      expect(log.slice(0, 3)).toEqual([
        "start bitcoin price today",
        "start bitcoin ETF flows",
        "start ethereum fees",
      ]);
      expect(log.slice(3).every((entry) => entry.startsWith("end "))).toBe(true);
      expect(tavily.requests).toHaveLength(3);
      const notes = userText(llm.calls[1]!);
      const first = tavily.requests.map((r) => (r.json as { query: string }).query);
      expect(first.sort()).toEqual(["bitcoin ETF flows", "bitcoin price today", "ethereum fees"]);
      // The notes follow query order, numbered as the sources they come from.
      expect(notes.indexOf("[2] ")).toBeGreaterThan(notes.indexOf("[1] "));
    });

    it("run one after the other in query order with searchConcurrency = 1", async () => {
      const log: string[] = [];
      const { deepSearch } = setup(
        { outline: threeQueries },
        { search: recorded(log, createTavilySearch()), searchConcurrency: 1 },
      );
      await deepSearch.streamingResponse("Crypto", { maxChapters: 1 });

      expect(log).toEqual([
        "start bitcoin price today",
        "end bitcoin price today",
        "start bitcoin ETF flows",
        "end bitcoin ETF flows",
        "start ethereum fees",
        "end ethereum fees",
      ]);
    });
  });

  it("still writes the chapter when one search gets a 429, and logs it", async () => {
    await useTavily({
      failQueries: (query) =>
        query === "bitcoin ETF flows" ? tavilyFaults.rateLimited() : undefined,
    });
    const { deepSearch, llm } = setup();
    const events = await collect(deepSearch.stream("Bitcoin", { maxChapters: 1 }));

    expect(events.at(-1)).toMatchObject({
      type: "done",
      report: expect.stringContaining(
        "## 1. Market overview \n Text of 1. Market overview, draft 1.",
      ),
    });
    const failure =
      "Tavily rate limit reached (HTTP 429): Your request has been blocked due to excessive requests. Please reduce rate of requests.";
    expect(events.filter((e) => e.type === "search")).toEqual(
      expect.arrayContaining([
        {
          type: "search",
          stage: "chapter",
          query: "bitcoin price today",
          status: "ok",
          results: 2,
        },
        {
          type: "search",
          stage: "chapter",
          query: "bitcoin ETF flows",
          status: "failed",
          results: 0,
          error: failure,
        },
      ]),
    );
    expect(logger.entries.filter((entry) => entry.level === "warn")).toEqual([
      { level: "warn", message: `Search failed, leaving out "bitcoin ETF flows": ${failure}` },
    ]);
    // Only the successful query's two pages reach the writer.
    expect(userText(llm.calls[1]!)).toMatch(
      /Research notes:\n\[1\] .+\n\n\[2\] .+\n\nWrite the chapter\.$/,
    );
  });

  it("logs one line per step and the chapter title and revision_number while generating", async () => {
    const { deepSearch } = setup();
    await deepSearch.streamingResponse("Bitcoin", { maxChapters: 1, maxRevisions: 2 });

    const { values } = await deepSearch.graph.getState();
    const adjustment = JSON.stringify(values.adjustment);
    const sources = `"sources":${JSON.stringify(values.sources)}`;
    expect(logger.infos).toEqual([
      'Agent name: planner : {"plan":["1. Market overview\\nbitcoin price today\\nbitcoin ETF flows"],"current_chapter_order":0,"number_of_chapters":1}',
      "Chapter title: 1. Market overview",
      "revision_number: 1",
      `Agent name: generate : {"sections":["1. Market overview","bitcoin price today","bitcoin ETF flows"],"chapters":["1. Market overview \\n Text of 1. Market overview, draft 1."],"draft":"Text of 1. Market overview, draft 1.",${sources},"current_chapter_order":0,"revision_number":2}`,
      'Agent name: reflect : {"critique":"Add figures for the ETF flows."}',
      `Agent name: research_critique : {"adjustment":${adjustment},${sources}}`,
      "Chapter title: 1. Market overview",
      "revision_number: 2",
      `Agent name: generate : {"sections":["1. Market overview","bitcoin price today","bitcoin ETF flows"],"chapters":["1. Market overview \\n Text of 1. Market overview, draft 2."],"draft":"Text of 1. Market overview, draft 2.",${sources},"current_chapter_order":1,"revision_number":1}`,
    ]);
  });

  it("streams typed progress events, ending with the report", async () => {
    const { deepSearch } = setup();
    const events = await collect(deepSearch.stream("Bitcoin", { maxCriticalQueries: 1 }));

    expect(events.map((event) => event.type)).toEqual([
      "planned",
      "chapter-start",
      "search",
      "search",
      "chapter-writing",
      "chapter-written",
      "critique",
      "critique-queries",
      "search",
      "chapter-start",
      "search",
      "search",
      "chapter-writing",
      "chapter-written",
      "done",
    ]);
    expect(events[0]).toEqual({
      type: "planned",
      plan: [
        "1. Market overview\nbitcoin price today\nbitcoin ETF flows",
        "2. Risks and outlook\n- crypto regulation 2025\nbitcoin price today",
      ],
      titles: ["1. Market overview", "2. Risks and outlook"],
    });
    expect(events[1]).toEqual({
      type: "chapter-start",
      chapter: 1,
      chapterCount: 2,
      title: "1. Market overview",
      revision: 1,
      queries: ["bitcoin price today", "bitcoin ETF flows"],
    });
    expect(events[4]).toEqual({
      type: "chapter-writing",
      chapter: 1,
      title: "1. Market overview",
      revision: 1,
      notes: 2,
    });
    expect(events[5]).toEqual({
      type: "chapter-written",
      chapter: 1,
      title: "1. Market overview",
      revision: 1,
      text: "Text of 1. Market overview, draft 1.",
    });
    expect(events[6]).toEqual({ type: "critique", critique: "Add figures for the ETF flows." });
    const done = events.at(-1);
    expect(done?.type === "done" && done.report).toBe(
      "# I. Planning\n1. Market overview\nbitcoin price today\nbitcoin ETF flows\n2. Risks and outlook\ncrypto regulation 2025\n\n# II. Results\n## 1. Market overview \n Text of 1. Market overview, draft 1.\n\n## 2. Risks and outlook \n Text of 2. Risks and outlook, draft 1.\n\n# III. Sources\n1. https://markets.example.com/crypto/bitcoin-etf-inflows\n2. https://research.example.com/onchain/long-term-holders",
    );
  });

  it("cuts a critique of 200 words or more to 199", async () => {
    const long = Array.from({ length: 230 }, (_, i) => `word${i}`).join(" ");
    const { deepSearch } = setup({ critique: long });
    const events = await collect(deepSearch.stream("Bitcoin"));
    const critique = events.find((e) => e.type === "critique");
    expect(critique?.type === "critique" && critique.critique.split(" ")).toHaveLength(199);
  });

  describe("threads and checkpoints", () => {
    it("saves the run in the injected checkpointer under the thread, readable via the graph", async () => {
      const saver = new MemorySaver();
      const { deepSearch } = setup({}, { checkpointer: saver });
      expect(deepSearch.checkpointer).toBe(saver);
      await deepSearch.streamingResponse("Bitcoin", { threadId: 7, maxChapters: 1 });

      const snapshot = await deepSearch.graph.getState({ configurable: { thread_id: "7" } });
      expect(snapshot.status).toBe("done");
      expect(snapshot.values.task).toBe("Bitcoin");
      expect(snapshot.values.chapters).toEqual([
        "1. Market overview \n Text of 1. Market overview, draft 1.",
      ]);
      expect(await saver.getLatest("7")).toBeDefined();
      expect(await saver.getLatest("1")).toBeUndefined();
    });

    // The warning is once per process, so nothing before this test may use `thread`.
    it("still takes the deprecated thread, warning once per process", async () => {
      const warn = vi.spyOn(process, "emitWarning").mockImplementation(() => undefined);
      try {
        const { deepSearch, llm } = setup();
        await deepSearch.streamingResponse("Bitcoin", { thread: "old-name", maxChapters: 1 });
        llm.addReplies("1. Stablecoins\nstablecoin rules");
        await deepSearch.streamingResponse("Stablecoins", {
          thread: "both",
          threadId: "both",
          maxChapters: 1,
        });
        expect(await deepSearch.checkpointer.getLatest("old-name")).toBeDefined();
        expect(await deepSearch.checkpointer.getLatest("both")).toBeDefined();
        expect(await deepSearch.checkpointer.getLatest("1")).toBeUndefined();
        expect(warn).toHaveBeenCalledTimes(1);
        expect(warn).toHaveBeenCalledWith(
          expect.stringContaining("pass the same thread as threadId"),
          { type: "DeprecationWarning", code: "FRAMEWORK_DEEPSEARCH_THREAD" },
        );
      } finally {
        warn.mockRestore();
      }
    });

    it("refuses threadId and thread naming two threads, before any model call", async () => {
      const { deepSearch, llm } = setup();
      const error = await deepSearch
        .streamingResponse("Bitcoin", { threadId: "a", thread: "b" })
        .catch((e: unknown) => e);
      expect(ConfigurationError.isInstance(error)).toBe(true);
      expect((error as ConfigurationError).setting).toBe("threadId");
      expect(llm.calls).toHaveLength(0);
    });

    it("uses thread 1 by default, and a new run on a thread starts clean", async () => {
      const { deepSearch, llm } = setup();
      await deepSearch.streamingResponse("Bitcoin", { maxChapters: 1 });
      llm.addReplies("1. Stablecoins\nstablecoin rules");
      const report = await deepSearch.streamingResponse("Stablecoins", { maxChapters: 1 });

      expect(report).toBe(
        "# I. Planning\n1. Stablecoins\nstablecoin rules\n\n# II. Results\n## 1. Stablecoins \n Text of 1. Stablecoins, draft 1.\n\n# III. Sources\n1. https://markets.example.com/crypto/bitcoin-etf-inflows\n2. https://research.example.com/onchain/long-term-holders",
      );
      const snapshot = await deepSearch.graph.getState();
      expect(snapshot.threadId).toBe("1");
      expect(snapshot.values.task).toBe("Stablecoins");
    });
  });

  describe("failures", () => {
    it("a missing TAVILY_API_KEY is a ConfigurationError at the first search", async () => {
      vi.stubEnv("TAVILY_API_KEY", undefined);
      const { deepSearch, llm } = setup();
      const error = await deepSearch.streamingResponse("Bitcoin").catch((e: unknown) => e);

      expect(ConfigurationError.isInstance(error)).toBe(true);
      expect((error as ConfigurationError).setting).toBe("TAVILY_API_KEY");
      expect((error as Error).message).toMatch(/^TAVILY_API_KEY is not set\./);
      expect(llm.calls.map(stepOf)).toEqual(["planner"]);
      expect(tavily.requests).toHaveLength(0);
    });

    it("an outline without numbered chapters is an EmptyOutlineError", async () => {
      const { deepSearch } = setup({ outline: "Sorry, I can't plan that." });
      const error = await deepSearch.streamingResponse("Bitcoin").catch((e: unknown) => e);

      expect(EmptyOutlineError.isInstance(error)).toBe(true);
      expect((error as EmptyOutlineError).reply).toBe("Sorry, I can't plan that.");
      expect(tavily.requests).toHaveLength(0);
    });

    it("aborting the signal cancels the run with an AbortedError", async () => {
      const controller = new AbortController();
      const search: WebSearch = (_query, options) =>
        new Promise((_resolve, reject) =>
          options?.signal?.addEventListener("abort", () =>
            reject(new AbortedError({ operation: "web search" })),
          ),
        );
      const { deepSearch } = setup({}, { search });
      const seen: string[] = [];
      const error = await (async () => {
        for await (const event of deepSearch.stream("Bitcoin", { signal: controller.signal })) {
          seen.push(event.type);
          if (event.type === "chapter-start") controller.abort();
        }
      })().catch((e: unknown) => e);

      expect(AbortedError.isInstance(error)).toBe(true);
      expect(seen).toEqual(["planned", "chapter-start"]);
      expect((await deepSearch.graph.getState()).status).toBe("cancelled");
    });

    it("leaving the stream early cancels the run", async () => {
      const { deepSearch, llm } = setup();
      for await (const event of deepSearch.stream("Bitcoin")) {
        if (event.type === "planned") break;
      }
      expect((await deepSearch.graph.getState()).status).toBe("cancelled");
      expect(llm.calls.filter((call) => stepOf(call) === "reflect")).toHaveLength(0);
    });

    it("refuses a searchConcurrency below 1", () => {
      const llm = deepSearchLLM({ outline });
      const silent: Logger = logger;
      expect(() => new DeepSearch({ llm, logger: silent, searchConcurrency: 0 })).toThrow(
        RangeError,
      );
    });
  });
});
