import { join } from "node:path";
import type { ChatModel, Logger } from "@framework/core";
import {
  AgentNode,
  type AgentNodeOptions,
  appendReducer,
  CrewAgent,
  defineState,
  END,
  FlowStateGraph,
  MemorySaver,
  reducer,
  START,
  type StateOf,
  type UpdateOf,
} from "@framework/graph";
import { z } from "zod";

const Message = z.object({ role: z.string(), content: z.string() });

/** The shared state of the test crew: three insights written concurrently, then a plan. */
export const InsightState = defineState({
  messages: reducer(z.array(Message), appendReducer, () => []),
  news_insight: z.string().optional(),
  equity_insight: z.string().optional(),
  crypto_insight: z.string().optional(),
  final_recommendation: z.string().optional(),
});

/** A state of {@link InsightState}. */
export type Insights = StateOf<typeof InsightState>;
type InsightsUpdate = UpdateOf<typeof InsightState>;
type InsightKey = "news_insight" | "equity_insight" | "crypto_insight";

/** An analyst node: asks its model about the user's question and writes one insight. */
class InsightNode extends AgentNode<Insights, InsightsUpdate> {
  readonly #key: InsightKey;

  constructor(options: AgentNodeOptions & { key: InsightKey }) {
    super(options);
    this.#key = options.key;
  }

  async exec(state: Insights): Promise<InsightsUpdate> {
    const reply = await this.invoke(`Question: ${state.messages[0]?.content}`);
    return {
      [this.#key]: reply.content,
      messages: { role: this.name, content: reply.content },
    };
  }
}

/** The join: asks its model to combine the three insights. */
class RecommenderNode extends AgentNode<Insights, InsightsUpdate> {
  async exec(state: Insights): Promise<InsightsUpdate> {
    const reply = await this.invoke(
      [state.news_insight, state.equity_insight, state.crypto_insight].join("\n"),
    );
    return {
      final_recommendation: reply.content,
      messages: { role: this.name, content: reply.content },
    };
  }
}

/** The model of each node of the test crew. */
export interface InsightModels {
  news: ChatModel;
  market: ChatModel;
  crypto: ChatModel;
  recommender: ChatModel;
}

/**
 * The crew `START -> {news, market, crypto} -> recommender -> END`, each node on its own model,
 * checkpointed in memory. Every node's instruction names the node ("You are the <name>
 * node."), so one fake model can tell them apart.
 */
export function buildInsightCrew(models: InsightModels, dir: string, logger: Logger) {
  const common = { toolsPath: join(dir, "tools.json"), cwd: dir, logger, tools: [] };
  const instruction = (name: string) => `You are the ${name} node.`;
  const news = new InsightNode({
    name: "news",
    key: "news_insight",
    llm: models.news,
    instruction: instruction("news"),
    ...common,
  });
  const market = new InsightNode({
    name: "market",
    key: "equity_insight",
    llm: models.market,
    instruction: instruction("market"),
    ...common,
  });
  const crypto = new InsightNode({
    name: "crypto",
    key: "crypto_insight",
    llm: models.crypto,
    instruction: instruction("crypto"),
    ...common,
  });
  const recommender = new RecommenderNode({
    name: "recommender",
    llm: models.recommender,
    instruction: instruction("recommender"),
    ...common,
  });
  const crew = new CrewAgent({
    checkpointer: new MemorySaver(),
    graph: new FlowStateGraph(InsightState),
    flow: [
      START.to(news),
      START.to(market),
      START.to(crypto),
      news.to(recommender),
      market.to(recommender),
      crypto.to(recommender),
      recommender.to(END),
    ],
    logger,
  });
  return { crew, ready: Promise.all([news, market, crypto, recommender].map((n) => n.ready)) };
}
