import { describe, expect, it } from "vitest";
import { proseAnswer } from "./prose-answer.js";

describe("proseAnswer", () => {
  it("writes an object's fields as sentences, nested values inline", () => {
    const json = JSON.stringify({
      action: "Hold 60% equities.",
      allocation: [
        { asset: "equities", percent: 60 },
        { asset: "cash", percent: 40 },
      ],
      risks: ["rates", "earnings"],
      hedged: false,
    });
    expect(proseAnswer(json)).toBe(
      [
        "Action: Hold 60% equities.",
        "Allocation: asset equities, percent 60; asset cash, percent 40.",
        "Risks: rates; earnings.",
        "Hedged: false.",
      ].join("\n"),
    );
  });

  it("writes an array as one sentence", () => {
    expect(proseAnswer('["AAPL", "MSFT"]')).toBe("AAPL; MSFT.");
  });

  it.each(["I would hold.", "42", '"quoted"', "null", "{ not json"])(
    "leaves %s as it is",
    (text) => {
      expect(proseAnswer(text)).toBe(text);
    },
  );

  it("never gives back JSON for an object", () => {
    expect(() => JSON.parse(proseAnswer('{"a":{"b":[1,2]}}'))).toThrow();
  });
});
