import { describe, expect, it } from "vitest";
import { Recommendation, renderRecommendation } from "./recommendation.js";

const recommendation: Recommendation = {
  action: "Hold 60% equities, 10% BTC and 30% cash.",
  allocation: [
    { asset: "equities", percent: 60 },
    { asset: "BTC", percent: 10 },
    { asset: "cash", percent: 30 },
  ],
  rationale: "Equities trend up; BTC is volatile.",
  risks: ["A break below support."],
};

describe("Recommendation", () => {
  it("accepts a split adding up to 100% and refuses one that does not", () => {
    expect(Recommendation.safeParse(recommendation).success).toBe(true);
    const short = { ...recommendation, allocation: recommendation.allocation.slice(1) };
    const issues = Recommendation.safeParse(short).error?.issues ?? [];
    expect(issues.map((issue) => issue.message)).toEqual(["the percentages must add up to 100"]);
  });

  it("renders the report's text: action, allocation, rationale, risks", () => {
    expect(renderRecommendation(recommendation)).toBe(
      [
        "Action: Hold 60% equities, 10% BTC and 30% cash.",
        "Allocation: 60% equities, 10% BTC, 30% cash.",
        "Equities trend up; BTC is volatile.",
        "Risks:\n- A break below support.",
      ].join("\n\n"),
    );
  });
});
