import { describe, expect, it } from "vitest";
import type { ArxivEntry } from "./arxiv-feed.js";
import { toPaperInfo } from "./paper-info.js";

const entry: ArxivEntry = {
  id: "http://arxiv.org/abs/2206.06921v3",
  title: "\n  Agents   That\n    Use Tools  ",
  summary: "  First line of the\nabstract,   wrapped.\n",
  published: "2022-06-14T17:59:59Z",
  authors: ["Ada Quill", "Bo Stern"],
  pdfUrl: "https://arxiv.org/pdf/2206.06921v3",
};

describe("toPaperInfo", () => {
  it("takes the id from the entry id, joins texts onto one line and keeps the date", () => {
    expect(toPaperInfo(entry)).toEqual({
      paper_id: "2206.06921v3",
      title: "Agents That Use Tools",
      authors: ["Ada Quill", "Bo Stern"],
      summary: "First line of the abstract, wrapped.",
      published: "2022-06-14",
      pdf_url: "https://arxiv.org/pdf/2206.06921v3",
    });
  });

  it("passes old-style ids through and takes the date as written, not converted", () => {
    const info = toPaperInfo({
      ...entry,
      id: "http://arxiv.org/abs/hep-ex/0307015v1",
      published: "2003-07-07T23:46:39-04:00",
      pdfUrl: "http://arxiv.org/pdf/hep-ex/0307015v1",
    });
    expect(info).toMatchObject({
      paper_id: "hep-ex/0307015v1",
      published: "2003-07-07",
      pdf_url: "http://arxiv.org/pdf/hep-ex/0307015v1",
    });
  });

  it.each([
    ["no pdf link", undefined],
    ["a pdf link for another form of the id", "http://arxiv.org/pdf/2206.06921v3.pdf"],
  ])("builds the PDF link when the feed has %s", (_case, pdfUrl) => {
    expect(toPaperInfo({ ...entry, pdfUrl }).pdf_url).toBe("http://arxiv.org/pdf/2206.06921v3");
  });

  it("keeps an id or date it cannot take apart as it is", () => {
    expect(toPaperInfo({ ...entry, id: "2301.00001v1", published: "June 2023" })).toMatchObject({
      paper_id: "2301.00001v1",
      published: "June 2023",
      pdf_url: "http://arxiv.org/pdf/2301.00001v1",
    });
  });
});
