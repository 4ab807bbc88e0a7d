import { AgentNode, loggingMessage } from "@framework/graph";
import { recommenderPrompt } from "../crew-prompts.js";
import type { Trading, TradingUpdate } from "../trading-state.js";
import { latestQuery, replyContent } from "./reply-content.js";

/** The recommender: runs once both insights exist and writes the final recommendation. */
export class RecommenderAgent extends AgentNode<Trading, TradingUpdate> {
  @loggingMessage
  async exec(state: Trading): Promise<TradingUpdate> {
    if (state.equity_insight === undefined || state.crypto_insight === undefined) {
      throw new Error("The recommender ran before both insights were written.");
    }
    const reply = await this.invoke(
      recommenderPrompt(latestQuery(state.messages), state.equity_insight, state.crypto_insight),
    );
    const content = replyContent(reply);
    return { final_recommendation: content, messages: { role: "Recommender", content } };
  }
}
