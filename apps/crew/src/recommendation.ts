import { z } from "zod";

/** One position of the recommended portfolio. */
export const Position = z.object({
  asset: z
    .string()
    .describe("What to hold: an asset class (equities, cash) or a ticker (AAPL, BTC)"),
  percent: z.number().min(0).max(100).describe("Its share of the portfolio, in percent"),
});

// Rounding in the model's arithmetic is fine; a split that leaves a tenth unallocated is not.
const fullyAllocated = (positions: ReadonlyArray<{ percent: number }>) =>
  Math.abs(positions.reduce((sum, position) => sum + position.percent, 0) - 100) <= 0.5;

/**
 * The recommender's answer, asked of the model as structured output: what to do, the split of
 * the portfolio (adding up to 100%), why, and what to watch.
 */
export const Recommendation = z.object({
  action: z.string().describe("What the trader should do now, in one sentence"),
  allocation: z
    .array(Position)
    .min(1)
    .refine(fullyAllocated, { message: "the percentages must add up to 100" })
    .describe("The recommended split across equities, BTC and cash, adding up to 100%"),
  rationale: z.string().describe("Why, from the figures of the equity and crypto analyses"),
  risks: z.array(z.string()).describe("The main risks to watch, one per entry"),
});

/** The recommender's typed answer. */
export type Recommendation = z.infer<typeof Recommendation>;

/** The recommendation as text: the crew's `final_recommendation` and its report section. */
export function renderRecommendation(recommendation: Recommendation): string {
  const split = recommendation.allocation
    .map((position) => `${position.percent}% ${position.asset}`)
    .join(", ");
  return [
    `Action: ${recommendation.action}`,
    `Allocation: ${split}.`,
    recommendation.rationale,
    ...(recommendation.risks.length > 0
      ? [["Risks:", ...recommendation.risks.map((risk) => `- ${risk}`)].join("\n")]
      : []),
  ].join("\n\n");
}
