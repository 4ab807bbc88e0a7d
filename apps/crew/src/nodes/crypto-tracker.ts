import { AgentNode, loggingMessage } from "@framework/graph";
import { cryptoPrompt } from "../crew-prompts.js";
import type { Trading, TradingUpdate } from "../trading-state.js";
import { replyContent } from "./reply-content.js";

/** The crypto node: BTC-USD performance, trends and volatility. */
export class CryptoTracker extends AgentNode<Trading, TradingUpdate> {
  @loggingMessage
  async exec(): Promise<TradingUpdate> {
    const reply = await this.invoke(cryptoPrompt());
    const content = replyContent(reply);
    return { crypto_insight: content, messages: { role: "CryptoTracker", content } };
  }
}
