import { describe, expect, it } from "vitest";
import { limitWords } from "./limit-words.js";

describe("limitWords", () => {
  it("leaves a text within the limit unchanged", () => {
    expect(limitWords("one two\nthree", 3)).toBe("one two\nthree");
    expect(limitWords("", 3)).toBe("");
  });

  it("cuts after the limit's last word and marks the cut", () => {
    expect(limitWords("one two\n\nthree four five", 3)).toBe("one two\n\nthree…");
  });

  it("keeps a 250-word critique under 200 words", () => {
    const long = Array.from({ length: 250 }, (_, i) => `w${i}`).join(" ");
    const cut = limitWords(long, 199);
    expect(cut.split(/\s+/)).toHaveLength(199);
    expect(cut.endsWith("w198…")).toBe(true);
  });
});
