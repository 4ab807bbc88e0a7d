import {
  type ArxivFeedForm,
  type ArxivSamplePaper,
  renderArxivErrorFeed,
  renderArxivFeed,
} from "@framework/testing";
import { describe, expect, it } from "vitest";
import { parseArxivFeed } from "./arxiv-feed.js";
import { ArxivRequestError } from "./error/arxiv-request-error.js";

const paper: ArxivSamplePaper = {
  id: "2206.06921v3",
  title: "Agents\n  That  Use Tools",
  summary: "First sentence & more. Second sentence.",
  authors: [{ name: "Ada Quill", affiliation: "Example Lab" }, { name: "Bo Stern" }],
  published: "2022-06-14T17:59:59Z",
  updated: "2022-09-01T10:00:00Z",
  primaryCategory: "cs.AI",
  categories: ["cs.AI", "cs.CL"],
  comment: "9 pages",
  doi: "10.1000/example",
};

const query = { search_query: "agents", id_list: "", start: "0", max_results: "100" };

function malformed(xml: string): unknown {
  try {
    parseArxivFeed(xml);
  } catch (error) {
    return error;
  }
  return undefined;
}

describe.each<ArxivFeedForm>(["legacy", "current"])("parseArxivFeed, %s layout", (form) => {
  it("reads totals and entries", () => {
    const xml = renderArxivFeed({
      form,
      query,
      papers: [paper, { ...paper, id: "hep-ex/0307015v1", authors: [] }],
      totalResults: 42,
      startIndex: 0,
      itemsPerPage: 100,
    });
    const feed = parseArxivFeed(xml);
    expect(feed).toMatchObject({ kind: "results", totalResults: 42 });
    if (feed.kind !== "results") return;
    expect(feed.entries).toHaveLength(2);
    expect(feed.entries[0]).toEqual({
      id: "http://arxiv.org/abs/2206.06921v3",
      title: "Agents\n  That  Use Tools",
      summary: expect.stringContaining("First sentence & more."),
      published: "2022-06-14T17:59:59Z",
      authors: ["Ada Quill", "Bo Stern"],
      pdfUrl: `${form === "legacy" ? "http" : "https"}://arxiv.org/pdf/2206.06921v3`,
    });
    expect(feed.entries[1]).toMatchObject({
      id: "http://arxiv.org/abs/hep-ex/0307015v1",
      authors: [],
    });
  });

  it("reads a feed with no entries", () => {
    const xml = renderArxivFeed({
      form,
      query,
      papers: [],
      totalResults: 0,
      startIndex: 0,
      itemsPerPage: 100,
    });
    expect(parseArxivFeed(xml)).toEqual({ kind: "results", totalResults: 0, entries: [] });
  });

  it("reads arXiv's error feed as a rejection with its explanation", () => {
    const xml = renderArxivErrorFeed({
      form,
      query: { search_query: "", id_list: "1234.12345" },
      message: "incorrect id format for 1234.12345",
    });
    expect(parseArxivFeed(xml)).toEqual({
      kind: "error",
      message: "incorrect id format for 1234.12345",
    });
  });
});

describe("parseArxivFeed", () => {
  it("matches by namespace, not by prefix", () => {
    const xml = `<?xml version="1.0"?>
      <atom:feed xmlns:atom="http://www.w3.org/2005/Atom" xmlns:os="http://a9.com/-/spec/opensearch/1.1/">
        <os:totalResults>7</os:totalResults>
        <atom:entry>
          <atom:id>http://arxiv.org/abs/2401.00001v1</atom:id>
          <atom:title>T</atom:title>
          <atom:link type="application/pdf" href=" http://arxiv.org/pdf/2401.00001v1 "/>
          <atom:author><atom:name> Some
            Body </atom:name></atom:author>
          <opensearch:totalResults xmlns:opensearch="urn:not-opensearch">1</opensearch:totalResults>
        </atom:entry>
        <totalResults>99</totalResults>
      </atom:feed>`;
    const feed = parseArxivFeed(xml);
    expect(feed).toMatchObject({ kind: "results", totalResults: 7 });
    if (feed.kind !== "results") return;
    expect(feed.entries).toEqual([
      {
        id: "http://arxiv.org/abs/2401.00001v1",
        title: "T",
        summary: "",
        published: "",
        authors: ["Some Body"],
        pdfUrl: "http://arxiv.org/pdf/2401.00001v1",
      },
    ]);
  });

  it("leaves the total out when the feed does not state a number", () => {
    const xml = `<feed xmlns="http://www.w3.org/2005/Atom"><entry><id>x</id></entry></feed>`;
    expect(parseArxivFeed(xml)).toMatchObject({ kind: "results", totalResults: undefined });
  });

  it("takes an entry titled Error outside /abs/ as a rejection even without an errors id", () => {
    const xml = `<feed xmlns="http://www.w3.org/2005/Atom"><entry><id>urn:x</id>
      <title> Error </title><summary>something
      went wrong</summary></entry></feed>`;
    expect(parseArxivFeed(xml)).toEqual({ kind: "error", message: "something went wrong" });
  });

  it.each([
    ["<html><body>Service Unavailable</body></html>", "its root element is <html>"],
    ['<feed xmlns="urn:other"/>', "its root element is <{urn:other}feed>"],
    ["<feed/>", "its root element is <feed>"],
  ])("rejects %j as not an Atom feed", (xml, detail) => {
    const error = malformed(xml);
    expect(ArxivRequestError.isInstance(error)).toBe(true);
    expect(error).toMatchObject({
      reason: "malformed-response",
      message: `arXiv sent a response that is not an Atom feed: ${detail}`,
    });
  });
});
