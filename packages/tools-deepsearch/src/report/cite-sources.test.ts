import { describe, expect, it } from "vitest";
import { citeNotes, formatSources } from "./cite-sources.js";

describe("citeNotes", () => {
  it("numbers notes by their URL across the report, a known URL keeping its number, each note once", () => {
    const first = citeNotes(
      [],
      [
        { content: "A rose.", url: "https://a.example/1" },
        { content: "B fell.", url: "https://b.example/2" },
      ],
    );
    expect(first).toEqual({
      notes: ["[1] A rose.", "[2] B fell."],
      sources: ["https://a.example/1", "https://b.example/2"],
    });
    const second = citeNotes(first.sources, [
      { content: "C held.", url: "https://c.example/3" },
      { content: "A again.", url: "https://a.example/1" },
      { content: "C held.", url: "https://c.example/3" },
    ]);
    expect(second).toEqual({
      notes: ["[3] C held.", "[1] A again."],
      sources: ["https://a.example/1", "https://b.example/2", "https://c.example/3"],
    });
  });
});

describe("formatSources", () => {
  it("lists the URLs numbered from 1, and nothing when there are none", () => {
    expect(formatSources(["https://a.example/1", "https://b.example/2"])).toBe(
      "# III. Sources\n1. https://a.example/1\n2. https://b.example/2",
    );
    expect(formatSources([])).toBe("");
  });
});
