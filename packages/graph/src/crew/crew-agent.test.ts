import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import {
  AuthenticationError,
  createAuthCard,
  primaryFunction,
  sanitizeLogMessage,
} from "@framework/core";
import { createCapturingLogger, MockChatModel, mockToolCall } from "@framework/testing";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { z } from "zod";
import { MemorySaver } from "../checkpoint/memory-saver.js";
import { FlowStateGraph } from "../graph/flow-state-graph.js";
import { loggingMessage } from "../log/logging-message.js";
import { END, START } from "../node/endpoints.js";
import { appendReducer } from "../state/append-reducer.js";
import { reducer } from "../state/reducer.js";
import { defineState, type StateOf, type UpdateOf } from "../state/state-definition.js";
import { agentConversations } from "./agent-conversations.js";
import { AgentNode } from "./agent-node.js";
import { CrewAgent } from "./crew-agent.js";

const Message = z.object({ role: z.string(), content: z.string() });
const TradingState = defineState({
  messages: reducer(z.array(Message), appendReducer, () => []),
  equity_insight: z.string().optional(),
  crypto_insight: z.string().optional(),
  final_recommendation: z.string().optional(),
});
type Trading = StateOf<typeof TradingState>;
type TradingUpdate = UpdateOf<typeof TradingState>;

const events: string[] = [];

class MarketDataProvider extends AgentNode<Trading, TradingUpdate> {
  @loggingMessage
  async exec(state: Trading) {
    events.push("start market");
    const reply = await this.invoke(
      `Sentiment and technical outlook for: ${state.messages[0]?.content}`,
    );
    events.push("end market");
    return {
      equity_insight: reply.content,
      messages: { role: "MarketDataProvider", content: reply.content },
    };
  }
}

class CryptoTracker extends AgentNode<Trading, TradingUpdate> {
  @loggingMessage
  async exec() {
    events.push("start crypto");
    const reply = await this.invoke(
      "BTC-USD performance, trends and volatility. Use fetch_btc_market_data.",
    );
    events.push("end crypto");
    return {
      crypto_insight: reply.content,
      messages: { role: "CryptoTracker", content: reply.content },
    };
  }
}

class RecommenderAgent extends AgentNode<Trading, TradingUpdate> {
  @loggingMessage
  async exec(state: Trading) {
    events.push("recommender");
    const reply = await this.invoke(
      `Equity analysis:\n${state.equity_insight}\n\nCrypto analysis:\n${state.crypto_insight}\n\nGive a unified multi-asset recommendation.`,
    );
    return {
      final_recommendation: reply.content,
      messages: { role: "Recommender", content: reply.content },
    };
  }
}

const btc = primaryFunction(
  {
    name: "fetch_btc_market_data",
    description: "BTC summary.",
    parameters: z.object({}),
    returns: "str",
  },
  async () => "--- BTC-USD Market Data ---\nCurrent Price: $97234.56 USD",
);

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), "crew-test-"));
  events.length = 0;
});
afterEach(() => rm(dir, { recursive: true, force: true }));

function buildCrew(slowMs = 20) {
  const logger = createCapturingLogger();
  const delayed = (reply: string) => async () => {
    await new Promise((resolve) => setTimeout(resolve, slowMs));
    return reply;
  };
  const marketLlm = new MockChatModel([delayed("AAPL looks bullish.")]);
  const cryptoLlm = new MockChatModel([
    { toolCalls: [mockToolCall("fetch_btc_market_data")] },
    "BTC is volatile but up 4%.",
  ]);
  const recommenderLlm = new MockChatModel(["Hold 70% equities, 30% BTC."]);
  const common = { toolsPath: join(dir, "tools.json"), logger, cwd: dir };
  const market = track(
    new MarketDataProvider({
      name: "market",
      llm: marketLlm,
      description: "Format tool arguments as a JSON object, never a plain string.",
      ...common,
    }),
  );
  const crypto = track(
    new CryptoTracker({
      name: "crypto",
      llm: cryptoLlm,
      tools: [btc],
      description: "Format tool arguments as a JSON object, never a plain string.",
      ...common,
    }),
  );
  const recommender = track(
    new RecommenderAgent({
      name: "recommender",
      llm: recommenderLlm,
      description: "You are a portfolio manager. Synthesise; do not fetch data or use tools.",
      ...common,
    }),
  );
  const crew = new CrewAgent({
    checkpointer: new MemorySaver(),
    graph: new FlowStateGraph(TradingState),
    flow: [
      START.to(market),
      START.to(crypto),
      market.to(recommender),
      crypto.to(recommender),
      recommender.to(END),
    ],
    logger,
  });
  return { crew, logger, market, crypto, recommender, recommenderLlm, marketLlm };
}

afterEach(async () => {
  // Registration writes run in the background; let them finish before the folder goes.
  await Promise.all(built.map((node) => node.ready.catch(() => {})));
  built.length = 0;
});

const built: AgentNode<Trading, TradingUpdate>[] = [];
function track<T extends AgentNode<Trading, TradingUpdate>>(node: T): T {
  built.push(node);
  return node;
}

describe("CrewAgent with the reference crew shape", () => {
  it("runs market and crypto concurrently, then the recommender once with both insights", async () => {
    const { crew, recommenderLlm, logger } = buildCrew();
    const state = await crew.invoke("Should I buy AAPL or BTC?", { userId: "u1", threadId: 7 });

    expect(events.slice(0, 2).sort()).toEqual(["start crypto", "start market"]);
    expect(events.indexOf("recommender")).toBe(4);
    expect(events.filter((e) => e === "recommender")).toHaveLength(1);
    expect(state).toMatchObject({
      equity_insight: "AAPL looks bullish.",
      crypto_insight: "BTC is volatile but up 4%.",
      final_recommendation: "Hold 70% equities, 30% BTC.",
    });
    expect(state.messages.map((m) => m.role).slice(0, 1)).toEqual(["user"]);
    expect(state.messages).toHaveLength(4);
    expect(
      state.messages
        .map((m) => m.role)
        .slice(1)
        .sort(),
    ).toEqual(["CryptoTracker", "MarketDataProvider"].concat("Recommender").sort());
    expect(state.messages.at(-1)).toEqual({
      role: "Recommender",
      content: "Hold 70% equities, 30% BTC.",
    });
    const prompt = recommenderLlm.calls[0]?.messages.at(-1)?.content ?? "";
    expect(prompt).toContain("AAPL looks bullish.");
    expect(prompt).toContain("BTC is volatile but up 4%.");
    expect(logger.infos).toContain("I'am chatting with u1");
    expect(logger.infos).toContain("============ RecommenderAgent Response ============");
    // The banner's JSON spans lines; the log keeps it as one record, its line breaks escaped.
    expect(logger.infos).toContain(
      sanitizeLogMessage(
        JSON.stringify(
          {
            final_recommendation: "Hold 70% equities, 30% BTC.",
            messages: { role: "Recommender", content: "Hold 70% equities, 30% BTC." },
          },
          null,
          2,
        ),
      ),
    );
    const saved = await crew.getState({ threadId: 7 });
    expect(saved.values.final_recommendation).toBe("Hold 70% equities, 30% BTC.");
  });

  it("registers runtime tools on a node through its toolRegistry", async () => {
    const { market, logger } = buildCrew();
    const extra = primaryFunction(
      {
        name: "fetch_stock_data_vn",
        description: "VN prices.",
        parameters: z.object({ symbol: z.string() }),
        returns: "table",
      },
      async ({ symbol }) => `${symbol}: 100`,
    );
    const record = market.toolRegistry.registerFunctionTool(extra);
    expect(record).toMatchObject({ module_path: "runtime", is_runtime: true });
    expect(logger.infos).toContain("Registered tool: fetch_stock_data_vn (runtime)");
    await market.toolRegistry.settled();
  });

  it("authenticates the crew's card before any node runs", async () => {
    const { market } = buildCrew();
    await market.ready;
    const graph = new FlowStateGraph(TradingState);
    const crew = new CrewAgent({
      checkpointer: new MemorySaver(),
      graph,
      flow: [START.to(market), market.to(END)],
      authCard: createAuthCard({
        token: "not-a-jwt",
        secret: "secret-of-enough-length-1234567890",
      }),
      logger: createCapturingLogger(),
    });
    await expect(crew.invoke("hi")).rejects.toSatisfy(AuthenticationError.isInstance);
    expect(events).toEqual([]);
  });

  it("refuses a state without messages", () => {
    const Plain = defineState({ value: z.string().optional() });
    expect(
      () =>
        new CrewAgent({
          checkpointer: new MemorySaver(),
          graph: new FlowStateGraph(Plain),
          flow: [],
        }),
    ).toThrow(/messages/);
  });
});

describe("CrewAgent.stream", () => {
  it("yields each agent node's events tagged with the node, between its start and end", async () => {
    const { crew } = buildCrew(0);
    const seen: string[] = [];
    const cryptoText: string[] = [];
    for await (const event of crew.stream("Should I buy AAPL or BTC?", { threadId: "s1" })) {
      if (event.type === "agent") {
        if (event.node === "crypto" && event.event.type === "text-delta") {
          cryptoText.push(event.event.text);
        }
        if (event.event.type === "tool-call")
          seen.push(`${event.node} tool ${event.event.toolName}`);
        if (event.event.type === "finish") seen.push(`${event.node} agent finished`);
      } else if (event.type !== "done") {
        seen.push(`${event.type} ${event.node}`);
      }
    }
    expect(cryptoText.join("")).toBe("BTC is volatile but up 4%.");
    const crypto = seen.filter((line) => line.includes("crypto"));
    expect(crypto).toEqual([
      "node_start crypto",
      "crypto tool fetch_btc_market_data",
      "crypto agent finished",
      "node_end crypto",
    ]);
    expect(seen.at(-2)).toBe("recommender agent finished");
  });
});

describe("AgentNode with memory", () => {
  const ChatState = defineState({
    messages: reducer(z.array(Message), appendReducer, () => []),
    answer: z.string().optional(),
    conversations: agentConversations(),
  });
  type Chat = StateOf<typeof ChatState>;
  type ChatUpdate = UpdateOf<typeof ChatState>;

  class Assistant extends AgentNode<Chat, ChatUpdate> {
    async exec(state: Chat) {
      const reply = await this.invoke(state.messages.at(-1)?.content ?? "");
      return { answer: reply.content };
    }
  }

  function chatCrew(llm: MockChatModel, memory: boolean) {
    // No registry file: nothing is written in the background.
    const assistant = new Assistant({
      name: "assistant",
      llm,
      description: "Answer briefly.",
      toolsPath: false,
      cwd: dir,
      memory,
    });
    return new CrewAgent({
      checkpointer: new MemorySaver(),
      graph: new FlowStateGraph(ChatState),
      flow: [START.to(assistant), assistant.to(END)],
    });
  }

  const nameIn = (request: { messages: { role: string; content: string | null }[] }) =>
    request.messages
      .filter((message) => message.role === "user")
      .map((message) => message.content)
      .join(" ")
      .match(/I am (\w+)/)?.[1] ?? "a stranger";

  it("continues the node's conversation on the same thread, and only there", async () => {
    const llm = new MockChatModel([], { defaultReply: (request) => `You are ${nameIn(request)}.` });
    const crew = chatCrew(llm, true);
    await crew.invoke("Hello, I am Ada.", { threadId: "t1" });
    const again = await crew.invoke("Who am I?", { threadId: "t1" });
    const elsewhere = await crew.invoke("Who am I?", { threadId: "t2" });

    expect(again.answer).toBe("You are Ada.");
    expect(elsewhere.answer).toBe("You are a stranger.");
    expect(again.conversations.assistant?.map((message) => message.role)).toEqual([
      "user",
      "assistant",
      "user",
      "assistant",
    ]);
  });

  it("starts afresh on every run without memory", async () => {
    const llm = new MockChatModel([], { defaultReply: (request) => `You are ${nameIn(request)}.` });
    const crew = chatCrew(llm, false);
    await crew.invoke("Hello, I am Ada.", { threadId: "t1" });
    const again = await crew.invoke("Who am I?", { threadId: "t1" });
    expect(again.answer).toBe("You are a stranger.");
    expect(again.conversations).toEqual({});
  });
});
