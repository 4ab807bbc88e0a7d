import { AgentNode, loggingMessage } from "@framework/graph";
import { marketPrompt } from "../crew-prompts.js";
import type { Trading, TradingUpdate } from "../trading-state.js";
import { latestQuery, replyContent } from "./reply-content.js";

/** The market node: the sentiment and technical outlook of the requested equity. */
export class MarketDataProvider extends AgentNode<Trading, TradingUpdate> {
  @loggingMessage
  async exec(state: Trading): Promise<TradingUpdate> {
    const reply = await this.invoke(marketPrompt(latestQuery(state.messages)));
    const content = replyContent(reply);
    return { equity_insight: content, messages: { role: "MarketDataProvider", content } };
  }
}
