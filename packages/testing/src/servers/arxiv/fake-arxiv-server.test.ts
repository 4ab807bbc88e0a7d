import { afterEach, describe, expect, it } from "vitest";
import type { FakeServer } from "../../server/fake-server.js";
import { arxivSamplePapers } from "./arxiv-sample-papers.js";
import { startFakeArxivServer } from "./fake-arxiv-server.js";

const servers: FakeServer[] = [];

async function start(options?: Parameters<typeof startFakeArxivServer>[0]): Promise<FakeServer> {
  const server = await startFakeArxivServer(options);
  servers.push(server);
  return server;
}

afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => server.close()));
});

async function query(server: FakeServer, params: Record<string, string>) {
  const response = await fetch(`${server.url}/api/query?${new URLSearchParams(params)}`);
  return {
    status: response.status,
    type: response.headers.get("content-type"),
    body: await response.text(),
  };
}

const entryIds = (body: string) =>
  [...body.matchAll(/<entry[^>]*>\s*<id>([^<]+)<\/id>/g)].map((match) => match[1]);
const totalResults = (body: string) =>
  Number(/<opensearch:totalResults[^>]*>(\d+)</.exec(body)?.[1]);

describe("arxivSamplePapers", () => {
  it("holds at least a dozen papers, an old-style id and a title spread over lines", () => {
    expect(arxivSamplePapers.length).toBeGreaterThanOrEqual(12);
    expect(arxivSamplePapers.some((paper) => /^[a-z-]+\/\d{7}v\d+$/.test(paper.id))).toBe(true);
    expect(arxivSamplePapers.some((paper) => /\n\s+/.test(paper.title))).toBe(true);
    expect(new Set(arxivSamplePapers.map((paper) => paper.id)).size).toBe(arxivSamplePapers.length);
  });
});

describe("startFakeArxivServer", () => {
  it("answers a search with a legacy Atom feed, ranked and paged", async () => {
    const server = await start();
    const all = await query(server, { search_query: "LLM agents", start: "0", max_results: "100" });
    expect(all.status).toBe(200);
    expect(all.type).toBe("application/atom+xml; charset=UTF-8");
    expect(all.body).toMatch(
      /^<\?xml version="1.0" encoding="UTF-8"\?>\n<feed xmlns="http:\/\/www.w3.org\/2005\/Atom">/,
    );
    expect(all.body).toContain(
      '<opensearch:totalResults xmlns:opensearch="http://a9.com/-/spec/opensearch/1.1/">',
    );
    expect(all.body).toContain(
      '<arxiv:primary_category xmlns:arxiv="http://arxiv.org/schemas/atom"',
    );
    expect(all.body).toMatch(
      /<link title="pdf" href="http:\/\/arxiv.org\/pdf\/[^"]+" rel="related" type="application\/pdf"\/>/,
    );
    const total = totalResults(all.body);
    expect(total).toBeGreaterThan(5);
    expect(entryIds(all.body)).toHaveLength(total);

    const page = await query(server, { search_query: "LLM agents", start: "2", max_results: "3" });
    expect(totalResults(page.body)).toBe(total);
    expect(entryIds(page.body)).toEqual(entryIds(all.body).slice(2, 5));
    expect(page.body).toContain(">2</opensearch:startIndex>");
    expect(page.body).toContain(">3</opensearch:itemsPerPage>");
  });

  it("answers in the current layout when asked, namespaces declared on the root", async () => {
    const server = await start({ feedForm: "current" });
    const { body } = await query(server, { search_query: "tool", max_results: "100" });
    expect(body).toContain(
      '<feed xmlns="http://www.w3.org/2005/Atom" xmlns:opensearch="http://a9.com/-/spec/opensearch/1.1/" xmlns:arxiv="http://arxiv.org/schemas/atom">',
    );
    expect(body).not.toMatch(/<(?:opensearch|arxiv):\w+ xmlns:/);
    expect(body).toMatch(/<opensearch:totalResults>\d+<\/opensearch:totalResults>/);
    expect(body).toMatch(
      /<link href="https:\/\/arxiv.org\/pdf\/[^"]+" rel="related" type="application\/pdf" title="pdf"\/>/,
    );
  });

  it("uses arXiv's default page of 10 and escapes markup characters", async () => {
    const server = await start();
    const { body } = await query(server, { search_query: "agents" });
    expect(entryIds(body).length).toBeLessThanOrEqual(10);
    const safety = await query(server, { search_query: "sandboxing" });
    expect(safety.body).toContain("<title>Safety &amp; Sandboxing for Tool-Using Agents");
    expect(safety.body).toContain("(&lt;5 points)");
  });

  it("keeps the submitter's line breaks in titles and wraps abstracts", async () => {
    const server = await start();
    const { body } = await query(server, { search_query: "survey" });
    expect(body).toContain("<title>Tool-Augmented   Language Models:\n  A Survey of  Methods,");
    expect(body).toMatch(/<summary> {2}\S[^<]*\n[^<]*<\/summary>/);
  });

  it("gives an empty feed with a total of 0 when nothing matches", async () => {
    const server = await start();
    const { status, body } = await query(server, { search_query: "lattice chromodynamics" });
    expect(status).toBe(200);
    expect(totalResults(body)).toBe(0);
    expect(entryIds(body)).toEqual([]);
  });

  it("looks for prefixed words in their field only and sorts by date when asked", async () => {
    const server = await start();
    const ids = async (params: Record<string, string>) =>
      entryIds((await query(server, { max_results: "100", ...params })).body);
    expect(await ids({ search_query: "cat:cs.SE" })).toEqual(["http://arxiv.org/abs/2310.06770v3"]);
    expect(await ids({ search_query: "au:Castellanos" })).toEqual([
      "http://arxiv.org/abs/2210.03629v3",
    ]);
    expect(await ids({ search_query: "ti:memory" })).toEqual(["http://arxiv.org/abs/2401.05459v2"]);
    const oldestFirst = await ids({
      search_query: "agents",
      sortBy: "submittedDate",
      sortOrder: "ascending",
    });
    expect(oldestFirst[0]).toBe("http://arxiv.org/abs/cs/0306112v1");
    expect(oldestFirst.at(-1)).toBe("http://arxiv.org/abs/2411.00927v2");
  });

  it("looks papers up by id_list, with or without version, old-style ids too", async () => {
    const server = await start();
    const { body } = await query(server, { id_list: "cs/0306112,2210.03629v3" });
    expect(entryIds(body)).toEqual([
      "http://arxiv.org/abs/cs/0306112v1",
      "http://arxiv.org/abs/2210.03629v3",
    ]);
  });

  it.each([
    [{ search_query: "" }, "search_query and id_list are both empty"],
    [{ id_list: "1234.12345x" }, "incorrect id format for 1234.12345x"],
    [{ search_query: "agents", start: "abc" }, "start must be an integer"],
    [{ search_query: "agents", max_results: "-1" }, "max_results must be non-negative"],
    [
      { search_query: "agents", sortBy: "date" },
      "sortBy must be one of relevance, lastUpdatedDate, submittedDate",
    ],
    [{ search_query: "ti:(agents" }, "malformed query: unbalanced parentheses"],
  ])("answers %j with arXiv's 400 error feed", async (params, message) => {
    const server = await start();
    const { status, body } = await query(server, params);
    expect(status).toBe(400);
    expect(body).toContain('<entry xmlns="http://www.w3.org/2005/Atom">');
    expect(body).toContain("<title>Error</title>");
    expect(body).toContain(`<summary>${message}</summary>`);
    expect(body).toContain("<id>http://arxiv.org/api/errors#");
  });

  it("rejects queries matching rejectQuery, in either layout", async () => {
    for (const feedForm of ["legacy", "current"] as const) {
      const server = await start({ feedForm, rejectQuery: /BROKEN/g });
      for (let attempt = 0; attempt < 2; attempt += 1) {
        const { status, body } = await query(server, { search_query: "all:BROKEN" });
        expect(status).toBe(400);
        expect(body).toContain("<summary>malformed query: all:BROKEN</summary>");
      }
    }
  });

  it("records requests and serves injected faults before answering normally", async () => {
    const server = await start();
    server.injectFaults({ status: 429, body: "Rate exceeded." });
    expect((await query(server, { search_query: "agents" })).status).toBe(429);
    expect((await query(server, { search_query: "agents" })).status).toBe(200);
    expect(server.requests.map((request) => request.query.search_query)).toEqual([
      "agents",
      "agents",
    ]);
  });

  it("answers 404 off /api/query", async () => {
    const server = await start();
    const response = await fetch(`${server.url}/api/other`);
    expect(response.status).toBe(404);
    await response.body?.cancel();
  });
});
