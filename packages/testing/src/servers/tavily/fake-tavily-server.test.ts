import { afterEach, describe, expect, it } from "vitest";
import {
  type FakeTavilyServer,
  fakeTavilyApiKey,
  startFakeTavilyServer,
} from "./fake-tavily-server.js";
import { tavilyFaults } from "./tavily-faults.js";

let server: FakeTavilyServer;

afterEach(async () => {
  await server.close();
});

async function search(body: unknown, key: string | null = server.apiKey) {
  const response = await fetch(`${server.url}/search`, {
    method: "POST",
    headers: {
      "content-type": "application/json",
      ...(key === null ? {} : { authorization: `Bearer ${key}` }),
    },
    body: JSON.stringify(body),
  });
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
}

describe("startFakeTavilyServer", () => {
  it("answers with Tavily's response shape, cut to max_results", async () => {
    server = await startFakeTavilyServer();
    const { status, body } = await search({ query: "bitcoin ETF", max_results: 2 });
    expect(status).toBe(200);
    expect(Object.keys(body).sort()).toEqual(
      [
        "answer",
        "follow_up_questions",
        "images",
        "query",
        "request_id",
        "response_time",
        "results",
      ].sort(),
    );
    expect(body).toMatchObject({
      query: "bitcoin ETF",
      answer: null,
      images: [],
      follow_up_questions: null,
    });
    const results = body.results as Array<Record<string, unknown>>;
    expect(results).toHaveLength(2);
    expect(Object.keys(results[0] ?? {}).sort()).toEqual([
      "content",
      "raw_content",
      "score",
      "title",
      "url",
    ]);
  });

  it("writes an answer only when include_answer asks for one", async () => {
    server = await startFakeTavilyServer();
    expect((await search({ query: "AI agents", include_answer: true })).body.answer).toMatch(
      /agents/,
    );
    expect((await search({ query: "AI agents", include_answer: "advanced" })).body.answer).toMatch(
      /agents/,
    );
    expect((await search({ query: "AI agents", include_answer: false })).body.answer).toBeNull();
  });

  it("returns five results by default and picks content by topic", async () => {
    server = await startFakeTavilyServer();
    const titles = async (query: string) =>
      ((await search({ query })).body.results as Array<{ title: string }>).map((r) => r.title);
    expect(await titles("Fed interest rate decision")).toHaveLength(5);
    expect((await titles("ethereum fees"))[0]).toMatch(/Bitcoin/);
    expect((await titles("large language model benchmarks"))[0]).toMatch(/agents/);
    expect((await titles("Nasdaq close"))[0]).toMatch(/Stocks/);
    expect((await titles("history of the printing press"))[0]).toMatch(/overview/);
  });

  it("rejects a missing or wrong key with Tavily's 401 body", async () => {
    server = await startFakeTavilyServer();
    const expected = {
      status: 401,
      body: { detail: { error: "Unauthorized: missing or invalid API key." } },
    };
    expect(await search({ query: "x" }, null)).toEqual(expected);
    expect(await search({ query: "x" }, "tvly-wrong")).toEqual(expected);
    expect(server.apiKey).toBe(fakeTavilyApiKey);
  });

  it("accepts the key it was given", async () => {
    server = await startFakeTavilyServer({ apiKey: "tvly-custom-key" });
    expect((await search({ query: "x" }, "tvly-custom-key")).status).toBe(200);
    expect((await search({ query: "x" }, fakeTavilyApiKey)).status).toBe(401);
  });

  it("rejects a request without a query", async () => {
    server = await startFakeTavilyServer();
    expect((await search({ max_results: 2 })).status).toBe(400);
    expect((await search({ query: " " })).status).toBe(400);
  });

  it("fails exactly the queries the hook picks", async () => {
    server = await startFakeTavilyServer({
      failQueries: (query) => (query === "bad" ? tavilyFaults.rateLimited() : undefined),
    });
    expect((await search({ query: "good" })).status).toBe(200);
    expect(await search({ query: "bad" })).toEqual({
      status: 429,
      body: {
        detail: {
          error:
            "Your request has been blocked due to excessive requests. Please reduce rate of requests.",
        },
      },
    });
  });

  it("lets a test replace the answer and the results", async () => {
    server = await startFakeTavilyServer({
      answer: (query) => `About ${query}.`,
      results: () => [
        { title: "T", url: "https://example.com", content: "C", score: 0.5, raw_content: null },
      ],
    });
    const { body } = await search({ query: "x", include_answer: true });
    expect(body.answer).toBe("About x.");
    expect(body.results).toEqual([
      { title: "T", url: "https://example.com", content: "C", score: 0.5, raw_content: null },
    ]);
  });

  it("answers 404 elsewhere", async () => {
    server = await startFakeTavilyServer();
    const response = await fetch(`${server.url}/extract`, { method: "POST" });
    expect(response.status).toBe(404);
  });
});
