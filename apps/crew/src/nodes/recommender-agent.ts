import { AgentNode, loggingMessage } from "@framework/graph";
import { recommenderPrompt } from "../crew-prompts.js";
import { Recommendation, renderRecommendation } from "../recommendation.js";
import type { Trading, TradingUpdate } from "../trading-state.js";
import { latestQuery } from "./reply-content.js";

/**
 * The recommender: runs once both insights exist and asks for the recommendation as
 * structured output, writing the typed `recommendation` and its text, `final_recommendation`.
 */
export class RecommenderAgent extends AgentNode<Trading, TradingUpdate> {
  @loggingMessage
  async exec(state: Trading): Promise<TradingUpdate> {
    if (state.equity_insight === undefined || state.crypto_insight === undefined) {
      throw new Error("The recommender ran before both insights were written.");
    }
    const { output } = await this.invoke(
      recommenderPrompt(latestQuery(state.messages), state.equity_insight, state.crypto_insight),
      { output: Recommendation },
    );
    const content = renderRecommendation(output);
    return {
      recommendation: output,
      final_recommendation: content,
      messages: { role: "Recommender", content },
    };
  }
}
