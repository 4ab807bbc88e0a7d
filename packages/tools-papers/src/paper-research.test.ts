import { AbortedError, ConfigurationError, getToolSpec, ToolArgumentsError } from "@framework/core";
import {
  type ArxivFeedForm,
  type ArxivSamplePaper,
  createCapturingLogger,
  errorBodyFault,
  errorBodyShapes,
  type FakeServer,
  startFakeArxivServer,
  startFakeServer,
} from "@framework/testing";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { createPaperResearchTool, paper_research } from "./paper-research.js";
import type { PaperResearchResult } from "./paper-research-result.js";

// Ranked by the fake's relevance: "agent" twice in the title, once in the title, only in the
// abstract.
const papers: ArxivSamplePaper[] = [
  {
    id: "hep-ex/0307015v1",
    title: "Detector Software for Collision Events",
    summary: "An agent-based\n  reconstruction   chain.",
    authors: [{ name: "H1 Software Group" }],
    published: "2003-07-07T13:46:39-04:00",
    updated: "2003-07-07T13:46:39-04:00",
    primaryCategory: "hep-ex",
    categories: ["hep-ex"],
  },
  {
    id: "2206.06921v3",
    title: "Agents That\n    Use   Tools:\n  A Study",
    summary: "We study how language models\ncall tools.  Results   vary.",
    authors: [{ name: "Ada Quill", affiliation: "Example Lab" }, { name: "Bo Stern" }],
    published: "2022-06-14T17:59:59Z",
    updated: "2022-09-01T10:00:00Z",
    primaryCategory: "cs.AI",
    categories: ["cs.AI"],
    comment: "9 pages",
  },
  {
    id: "2401.00001v1",
    title: "Agent Teams and Agent Roles",
    summary: "Roles for teams of models.",
    authors: [{ name: "Cy Dunn" }],
    published: "2024-01-02T03:04:05Z",
    updated: "2024-01-02T03:04:05Z",
    primaryCategory: "cs.MA",
    categories: ["cs.MA"],
  },
];

function expectedResult(form: ArxivFeedForm): PaperResearchResult {
  const pdf = form === "legacy" ? "http://arxiv.org/pdf" : "https://arxiv.org/pdf";
  return {
    topic: "agent",
    total_papers: 3,
    paper_ids: ["2401.00001v1", "2206.06921v3", "hep-ex/0307015v1"],
    papers_info: [
      {
        paper_id: "2401.00001v1",
        title: "Agent Teams and Agent Roles",
        authors: ["Cy Dunn"],
        summary: "Roles for teams of models.",
        published: "2024-01-02",
        pdf_url: `${pdf}/2401.00001v1`,
      },
      {
        paper_id: "2206.06921v3",
        title: "Agents That Use Tools: A Study",
        authors: ["Ada Quill", "Bo Stern"],
        summary: "We study how language models call tools. Results vary.",
        published: "2022-06-14",
        pdf_url: `${pdf}/2206.06921v3`,
      },
      {
        paper_id: "hep-ex/0307015v1",
        title: "Detector Software for Collision Events",
        authors: ["H1 Software Group"],
        summary: "An agent-based reconstruction chain.",
        published: "2003-07-07",
        pdf_url: `${pdf}/hep-ex/0307015v1`,
      },
    ],
    total_results: 3,
  };
}

const servers: FakeServer[] = [];

async function useServer(server: FakeServer): Promise<FakeServer> {
  servers.push(server);
  vi.stubEnv("ARXIV_API_URL", server.url);
  return server;
}

afterEach(async () => {
  vi.unstubAllEnvs();
  await Promise.all(servers.splice(0).map((server) => server.close()));
});

describe("paper_research request", () => {
  it("sends GET /api/query with exactly the spec's parameters, id_list empty", async () => {
    const server = await useServer(await startFakeArxivServer());
    await paper_research({ topic: "all:LLM AND ti:agents", max_results: 2 });
    expect(server.requests).toHaveLength(1);
    const [request] = server.requests;
    expect(request?.method).toBe("GET");
    expect(request?.path).toBe("/api/query");
    expect([...(request?.url.searchParams ?? [])]).toEqual([
      ["search_query", "all:LLM AND ti:agents"],
      ["id_list", ""],
      ["sortBy", "relevance"],
      ["sortOrder", "descending"],
      ["start", "0"],
      ["max_results", "100"],
    ]);
    expect(request?.url.search).toContain("&id_list=&");
  });

  it("reads ARXIV_API_URL at call time and tolerates a trailing slash", async () => {
    const first = await useServer(await startFakeArxivServer());
    const second = await startFakeArxivServer();
    servers.push(second);
    await paper_research({ topic: "agents" });
    vi.stubEnv("ARXIV_API_URL", `${second.url}/`);
    await paper_research({ topic: "agents" });
    expect(first.requests).toHaveLength(1);
    expect(second.requests.map((request) => request.path)).toEqual(["/api/query"]);
  });
});

describe.each<ArxivFeedForm>(["legacy", "current"])("paper_research, %s feed", (feedForm) => {
  beforeEach(async () => {
    await useServer(await startFakeArxivServer({ papers, feedForm }));
  });

  it("returns the papers in the documented shape", async () => {
    const logger = createCapturingLogger();
    const result = await paper_research({ topic: "agent", max_results: 5 }, { logger });
    expect(result).toEqual(expectedResult(feedForm));
    expect(logger.entries).toEqual([]);
  });

  it("keeps the first max_results papers", async () => {
    const result = await paper_research({ topic: "agent", max_results: 2 });
    const expected = expectedResult(feedForm);
    expect(result).toEqual({
      ...expected,
      total_papers: 2,
      paper_ids: expected.paper_ids.slice(0, 2),
      papers_info: expected.papers_info.slice(0, 2),
    });
  });

  it("reads a feed with a single entry", async () => {
    const result = await paper_research({ topic: "reconstruction" });
    expect(result).toEqual({
      topic: "reconstruction",
      total_papers: 1,
      paper_ids: ["hep-ex/0307015v1"],
      papers_info: [expectedResult(feedForm).papers_info[2]],
      total_results: 1,
    });
  });

  it("returns no papers and no error when nothing matches", async () => {
    const logger = createCapturingLogger();
    const result = await paper_research({ topic: "lattice chromodynamics" }, { logger });
    expect(result).toEqual({
      topic: "lattice chromodynamics",
      total_papers: 0,
      paper_ids: [],
      papers_info: [],
      total_results: 0,
    });
    expect(logger.entries).toEqual([]);
  });
});

describe("paper_research against the sample papers", () => {
  it("defaults to 5 papers, most relevant first, and reports arXiv's total", async () => {
    await useServer(await startFakeArxivServer());
    const all = await paper_research({ topic: "LLM agents tool use", max_results: 100 });
    const result = await paper_research({ topic: "LLM agents tool use" });
    expect(all.total_papers).toBeGreaterThan(5);
    expect(all.total_results).toBe(all.total_papers);
    expect(result.total_papers).toBe(5);
    expect(result.total_results).toBe(all.total_papers);
    expect(result.papers_info).toEqual(all.papers_info.slice(0, 5));
    for (const paper of all.papers_info) {
      expect(paper.paper_id).toMatch(/^(?:\d{4}\.\d{4,5}|[a-z-]+\/\d{7})v\d+$/);
      expect(paper.published).toMatch(/^\d{4}-\d{2}-\d{2}$/);
      expect(paper.pdf_url.endsWith(`/pdf/${paper.paper_id}`)).toBe(true);
      expect(paper.title).not.toMatch(/\s{2,}|^\s|\s$/);
      expect(paper.summary).not.toMatch(/\s{2,}|^\s|\s$/);
    }
  });

  it("normalises a title spread over lines and decodes escaped characters", async () => {
    await useServer(await startFakeArxivServer());
    const survey = await paper_research({ topic: "survey", max_results: 1 });
    expect(survey.papers_info[0]?.title).toBe(
      "Tool-Augmented Language Models: A Survey of Methods, Benchmarks and Open Problems",
    );
    const safety = await paper_research({ topic: "sandboxing", max_results: 1 });
    expect(safety.papers_info[0]?.title).toBe(
      "Safety & Sandboxing for Tool-Using Agents: Threat Models and Mitigations",
    );
    expect(safety.papers_info[0]?.summary).toContain("(<5 points)");
  });
});

describe("paper_research failures come back as results", () => {
  const topic = "agents";

  async function failing(): Promise<{ result: PaperResearchResult; warnings: string[] }> {
    const logger = createCapturingLogger();
    const result = await paper_research({ topic }, { logger });
    return {
      result,
      warnings: logger.entries.filter((line) => line.level === "warn").map((line) => line.message),
    };
  }

  function expectFailure(
    outcome: { result: PaperResearchResult; warnings: string[] },
    error: string | RegExp,
  ): void {
    expect(outcome.result).toEqual({
      topic,
      total_papers: 0,
      paper_ids: [],
      papers_info: [],
      error: typeof error === "string" ? error : expect.stringMatching(error),
    });
    expect(outcome.warnings).toEqual([
      `Error searching papers for ${topic}: ${outcome.result.error}`,
    ]);
  }

  it.each<ArxivFeedForm>(["legacy", "current"])(
    "arXiv's 400 error feed (%s) says why the query was rejected",
    async (feedForm) => {
      await useServer(await startFakeArxivServer({ feedForm, rejectQuery: "agents" }));
      expectFailure(
        await failing(),
        /^arXiv rejected the query \(HTTP 400 Bad Request\): malformed query: agents$/,
      );
    },
  );

  it("HTTP 429 asks to wait, quoting Retry-After when given", async () => {
    const server = await useServer(await startFakeArxivServer());
    server.injectFaults(
      { status: 429, body: "Rate exceeded." },
      { status: 429, headers: { "retry-after": "3" } },
    );
    expectFailure(
      await failing(),
      /^arXiv is limiting requests \(HTTP 429 Too Many Requests\); wait a few seconds before searching again$/,
    );
    expectFailure(await failing(), /again \(Retry-After: 3\)$/);
    expect(server.requests).toHaveLength(2);
  });

  it.each(errorBodyShapes)("a %s error body from a proxy is quoted", async (shape) => {
    const server = await useServer(await startFakeArxivServer());
    server.injectFaults(errorBodyFault(502, shape, "arXiv backend unreachable"));
    expectFailure(
      await failing(),
      /^arXiv answered HTTP 502 Bad Gateway: .*arXiv backend unreachable/,
    );
  });

  it.each([
    [500, "Internal Server Error: boom", "boom"],
    [503, "Service Unavailable: down", "<html><body>down</body></html>"],
    [404, "Not Found", ""],
  ])(
    "HTTP %i is reported with its status and body, without retrying",
    async (status, text, body) => {
      const server = await useServer(await startFakeArxivServer());
      server.injectFaults({ status, body });
      expectFailure(await failing(), new RegExp(`^arXiv answered HTTP ${status} ${text}$`));
      expect(server.requests).toHaveLength(1);
    },
  );

  it("a refused connection is a network failure", async () => {
    const closed = await startFakeServer(() => ({}));
    await closed.close();
    vi.stubEnv("ARXIV_API_URL", closed.url);
    expectFailure(
      await failing(),
      new RegExp(`^the connection to arXiv at ${closed.url} failed: .*ECONNREFUSED`),
    );
  });

  it("a connection cut in the middle of the body is a network failure", async () => {
    const server = await useServer(await startFakeArxivServer());
    server.injectFaults({ status: 200, body: "<feed>".padEnd(400, " "), cutAfterBytes: 20 });
    expectFailure(await failing(), /^the connection to arXiv at .* failed: /);
  });

  it("a server that never answers times out after ARXIV_TIMEOUT_MS", async () => {
    const server = await useServer(await startFakeArxivServer());
    vi.stubEnv("ARXIV_TIMEOUT_MS", "150");
    server.injectFaults({ hang: true });
    expectFailure(await failing(), `arXiv at ${server.url} did not answer within 150 ms`);
  });

  it("a body that stalls after the headers times out too", async () => {
    const server = await useServer(
      await startFakeServer((_request, res) => {
        res.writeHead(200, { "content-type": "application/atom+xml" });
        res.write('<feed xmlns="http://www.w3.org/2005/Atom">');
        return undefined;
      }),
    );
    vi.stubEnv("ARXIV_TIMEOUT_MS", "150");
    expectFailure(await failing(), `arXiv at ${server.url} did not answer within 150 ms`);
  });

  it.each([
    [
      "plain text",
      "Internal error, please retry",
      /^arXiv sent a response that is not well-formed XML: /,
    ],
    ["JSON", '{"error":"nope"}', /^arXiv sent a response that is not well-formed XML: /],
    ["truncated XML", '<feed xmlns="http://www.w3.org/2005/Atom"><entry>', /not well-formed XML/],
    [
      "HTML",
      "<html><body>Maintenance</body></html>",
      /not an Atom feed: its root element is <html>$/,
    ],
  ])("an unparsable body (%s) is reported as such", async (_kind, body, error) => {
    const server = await useServer(await startFakeArxivServer());
    server.injectFaults({ status: 200, body });
    expectFailure(await failing(), error);
  });

  it.each([
    ["ARXIV_API_URL", "not a url", 'ARXIV_API_URL is not a valid URL: "not a url"'],
    [
      "ARXIV_TIMEOUT_MS",
      "soon",
      'ARXIV_TIMEOUT_MS must be a positive number of milliseconds up to 2147483647, got "soon"',
    ],
    [
      "ARXIV_TIMEOUT_MS",
      "0",
      'ARXIV_TIMEOUT_MS must be a positive number of milliseconds up to 2147483647, got "0"',
    ],
    [
      "ARXIV_TIMEOUT_MS",
      "1e10",
      'ARXIV_TIMEOUT_MS must be a positive number of milliseconds up to 2147483647, got "1e10"',
    ],
  ])("a bad %s setting is reported without a request", async (name, value, error) => {
    const server = await useServer(await startFakeArxivServer());
    vi.stubEnv(name, value);
    expectFailure(await failing(), error);
    expect(server.requests).toHaveLength(0);
  });
});

describe("paper_research cancellation", () => {
  it("rejects with AbortedError, sending nothing, when already cancelled", async () => {
    const server = await useServer(await startFakeArxivServer());
    const controller = new AbortController();
    controller.abort();
    await expect(
      paper_research({ topic: "agents" }, { signal: controller.signal }),
    ).rejects.toSatisfy(AbortedError.isInstance);
    expect(server.requests).toHaveLength(0);
  });

  it("rejects with AbortedError when cancelled while waiting for arXiv", async () => {
    const server = await useServer(await startFakeArxivServer());
    server.injectFaults({ hang: true });
    const controller = new AbortController();
    const call = paper_research({ topic: "agents" }, { signal: controller.signal });
    await vi.waitFor(() => expect(server.requests).toHaveLength(1));
    controller.abort();
    await expect(call).rejects.toSatisfy(AbortedError.isInstance);
  });
});

describe("paper_research arguments", () => {
  let server: FakeServer;

  beforeAll(async () => {
    server = await startFakeArxivServer();
  });

  afterAll(async () => {
    await server.close();
  });

  beforeEach(() => {
    vi.stubEnv("ARXIV_API_URL", server.url);
  });

  it.each([
    [{ topic: "agents", max_results: 0 }, "max_results"],
    [{ topic: "agents", max_results: 2.5 }, "max_results"],
    [{ topic: "" }, "topic"],
    [{}, "topic"],
  ])("rejects %j with ToolArgumentsError naming %s, before any request", async (args, path) => {
    const before = server.requests.length;
    const call = paper_research(args as { topic: string });
    await expect(call).rejects.toSatisfy(ToolArgumentsError.isInstance);
    await expect(call).rejects.toMatchObject({ issues: [expect.objectContaining({ path })] });
    expect(server.requests).toHaveLength(before);
  });
});

describe("paper_research model output", () => {
  const toModelOutput = getToolSpec(paper_research).toModelOutput;
  const render = (result: PaperResearchResult) => toModelOutput?.(result) ?? "";

  it("lists each paper compactly", () => {
    const text = render(expectedResult("legacy"));
    expect(text).toMatch(
      /^Found 3 papers on arXiv for "agent" \(arXiv matched 3\):\n\n1\. Agent Teams and Agent Roles \[2401\.00001v1\]\n {3}Authors: Cy Dunn\n {3}Published: 2024-01-02\n {3}PDF: http:\/\/arxiv\.org\/pdf\/2401\.00001v1\n {3}Summary: Roles for teams of models\.\n\n2\. /,
    );
  });

  it("shortens long author lists and abstracts", () => {
    const paper = expectedResult("legacy").papers_info[0]!;
    const text = render({
      topic: "x",
      total_papers: 1,
      paper_ids: ["2401.00001v1"],
      papers_info: [
        {
          ...paper,
          authors: Array.from({ length: 9 }, (_, index) => `Author ${index + 1}`),
          summary: "word ".repeat(400).trim(),
        },
      ],
    });
    expect(text).toContain(
      "Authors: Author 1, Author 2, Author 3, Author 4, Author 5, Author 6 et al. (9 authors)",
    );
    expect(text).toMatch(/Summary: (?:word ){199}word…$/);
    expect(text).toMatch(/^Found 1 paper on arXiv for "x":/);
  });

  it("says when nothing was found and when the search failed", () => {
    const empty = { topic: "x", total_papers: 0, paper_ids: [], papers_info: [] };
    expect(render(empty)).toBe('No papers found on arXiv for "x".');
    expect(render({ ...empty, error: "arXiv answered HTTP 500 Internal Server Error" })).toBe(
      'Paper search for "x" failed: arXiv answered HTTP 500 Internal Server Error',
    );
  });
});

async function arxiv(): Promise<FakeServer> {
  const server = await startFakeArxivServer();
  servers.push(server);
  return server;
}

function settingOf(create: () => unknown): string | undefined {
  try {
    create();
  } catch (error) {
    return ConfigurationError.isInstance(error) ? error.setting : "another error";
  }
  return undefined;
}

describe("createPaperResearchTool", () => {
  // A server configures tools per tenant, so nothing here may come from the environment.
  beforeEach(() => {
    vi.stubEnv("ARXIV_API_URL", undefined);
    vi.stubEnv("ARXIV_TIMEOUT_MS", undefined);
  });

  it("gives each tool its own baseURL, with no environment variable set", async () => {
    const [first, second] = [await arxiv(), await arxiv()];
    const forFirst = createPaperResearchTool({ baseURL: first.url });
    const forSecond = createPaperResearchTool({ baseURL: `${second.url}/` });
    const [a, b] = await Promise.all([
      forFirst({ topic: "agents", max_results: 1 }),
      forSecond({ topic: "graphs", max_results: 1 }),
    ]);
    expect(a.error).toBeUndefined();
    expect(b.error).toBeUndefined();
    expect(first.requests.map((request) => request.query.search_query)).toEqual(["agents"]);
    expect(second.requests.map((request) => request.query.search_query)).toEqual(["graphs"]);
  });

  it("wins over ARXIV_API_URL and ARXIV_TIMEOUT_MS, which the default tool still reads per call", async () => {
    const [given, fromEnvironment] = [await arxiv(), await arxiv()];
    vi.stubEnv("ARXIV_API_URL", fromEnvironment.url);
    vi.stubEnv("ARXIV_TIMEOUT_MS", "not a number");
    const tool = createPaperResearchTool({ baseURL: given.url, timeoutMs: 5_000 });
    expect((await tool({ topic: "agents" })).error).toBeUndefined();
    expect(given.requests).toHaveLength(1);
    expect(fromEnvironment.requests).toHaveLength(0);

    vi.stubEnv("ARXIV_TIMEOUT_MS", undefined);
    expect((await paper_research({ topic: "agents" })).error).toBeUndefined();
    expect(fromEnvironment.requests).toHaveLength(1);
  });

  it("bounds the exchange by its own timeoutMs", async () => {
    const server = await arxiv();
    server.injectFaults({ hang: true });
    const logger = createCapturingLogger();
    const tool = createPaperResearchTool({ baseURL: server.url, timeoutMs: 100 });
    const result = await tool({ topic: "agents" }, { logger });
    expect(result.error).toBe(`arXiv at ${server.url} did not answer within 100 ms`);
    expect(logger.lines).toEqual([
      `Error searching papers for agents: arXiv at ${server.url} did not answer within 100 ms`,
    ]);
  });

  it("sends its requests through the given fetch", async () => {
    const server = await arxiv();
    const seen: string[] = [];
    const tool = createPaperResearchTool({
      baseURL: "http://arxiv.invalid",
      fetch: (input, init) => {
        const url = new URL(input instanceof Request ? input.url : String(input));
        seen.push(url.pathname);
        return fetch(`${server.url}${url.pathname}${url.search}`, init);
      },
    });
    expect((await tool({ topic: "agents", max_results: 2 })).total_papers).toBe(2);
    expect(seen).toEqual(["/api/query"]);
    expect(server.requests).toHaveLength(1);
  });

  it("is the same tool as paper_research: name, parameters and failure texts", async () => {
    const tool = createPaperResearchTool({ baseURL: "http://127.0.0.1:9" });
    const spec = getToolSpec(tool);
    const reference = getToolSpec(paper_research);
    expect(spec.name).toBe("paper_research");
    expect(spec.description).toBe(reference.description);
    expect(spec.returns).toBe(reference.returns);
    expect(Object.keys(spec.parameters.shape)).toEqual(["topic", "max_results"]);

    const closed = await startFakeServer(() => ({}));
    await closed.close();
    const logger = createCapturingLogger();
    const result = await createPaperResearchTool({ baseURL: closed.url })(
      { topic: "agents" },
      { logger },
    );
    expect(result).toMatchObject({ topic: "agents", total_papers: 0, paper_ids: [] });
    expect(result.error).toMatch(
      new RegExp(`^the connection to arXiv at ${closed.url} failed: .*ECONNREFUSED`),
    );
  });

  it("refuses a baseURL that is not a URL and a timeoutMs that is not a positive time limit", () => {
    expect(settingOf(() => createPaperResearchTool({ baseURL: "arxiv" }))).toBe("baseURL");
    for (const timeoutMs of [0, -1, Number.NaN, 2 ** 31]) {
      expect(settingOf(() => createPaperResearchTool({ timeoutMs }))).toBe("timeoutMs");
    }
    expect(settingOf(() => createPaperResearchTool({ timeoutMs: 1 }))).toBeUndefined();
  });
});
