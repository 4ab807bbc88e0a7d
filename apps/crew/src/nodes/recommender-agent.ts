import { unstructuredNote } from "@framework/cli-kit";
import { OutputValidationError } from "@framework/core";
import { AgentNode, loggingMessage } from "@framework/graph";
import { recommenderPrompt } from "../crew-prompts.js";
import { Recommendation, renderRecommendation } from "../recommendation.js";
import type { Trading, TradingUpdate } from "../trading-state.js";
import { latestQuery } from "./reply-content.js";

/**
 * The recommender: runs once both insights exist and asks for the recommendation as
 * structured output, writing the typed `recommendation` and its text, `final_recommendation`.
 * A model that answers in prose even after the retry does not fail the run: its text is the
 * `final_recommendation`, `recommendation` is `null` and `recommendation_issues` says why.
 */
export class RecommenderAgent extends AgentNode<Trading, TradingUpdate> {
  @loggingMessage
  async exec(state: Trading): Promise<TradingUpdate> {
    if (state.equity_insight === undefined || state.crypto_insight === undefined) {
      throw new Error("The recommender ran before both insights were written.");
    }
    const prompt = recommenderPrompt(
      latestQuery(state.messages),
      state.equity_insight,
      state.crypto_insight,
    );
    try {
      const { output } = await this.invoke(prompt, { output: Recommendation });
      return recommended(output, renderRecommendation(output));
    } catch (error) {
      if (!OutputValidationError.isInstance(error)) throw error;
      this.logger.warn(unstructuredNote("recommendation", error.issues));
      return recommended(
        null,
        error.text.trim() || "(the model gave no answer text)",
        error.issues,
      );
    }
  }
}

function recommended(
  recommendation: Recommendation | null,
  content: string,
  issues: TradingUpdate["recommendation_issues"] = [],
): TradingUpdate {
  return {
    recommendation,
    recommendation_issues: issues,
    final_recommendation: content,
    messages: { role: "Recommender", content },
  };
}
