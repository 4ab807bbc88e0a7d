import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { type Trading, TradingState, type TradingUpdate } from "@framework/app-crew";
import { type Logger, OpenAIChatModel } from "@framework/core";
import {
  AgentNode,
  type AgentNodeOptions,
  CrewAgent,
  END,
  FlowStateGraph,
  MemorySaver,
  START,
} from "@framework/graph";
import { startFakeLLMServer } from "@framework/testing";
import { type BenchRow, formatNumber, times } from "./report.js";
import { median, timeAsync } from "./stats.js";

/** Settings of {@link benchCrewWallTime}. */
export interface CrewWallTimeOptions {
  /** The fake LLM server's delay per call; the issue says 300 ms. */
  readonly latencyMs: number;
  readonly warmup: number;
  readonly samples: number;
}

const question = (state: Trading) => state.messages.find((m) => m.role === "user")?.content ?? "";

class MarketDataProvider extends AgentNode<Trading, TradingUpdate> {
  async exec(state: Trading): Promise<TradingUpdate> {
    const reply = await this.invoke(
      `Give the sentiment and technical outlook of AAPL for a trader. ${question(state)}`,
    );
    return {
      equity_insight: reply.content,
      messages: { role: "MarketDataProvider", content: reply.content },
    };
  }
}

class CryptoTracker extends AgentNode<Trading, TradingUpdate> {
  async exec(state: Trading): Promise<TradingUpdate> {
    const reply = await this.invoke(
      `Describe BTC-USD performance, trends and volatility. ${question(state)}`,
    );
    return {
      crypto_insight: reply.content,
      messages: { role: "CryptoTracker", content: reply.content },
    };
  }
}

class RecommenderAgent extends AgentNode<Trading, TradingUpdate> {
  async exec(state: Trading): Promise<TradingUpdate> {
    const reply = await this.invoke(
      `Equity analysis:\n${state.equity_insight}\n\nCrypto analysis:\n${state.crypto_insight}\n\n` +
        "Give one unified multi-asset recommendation.",
    );
    return {
      final_recommendation: reply.content,
      messages: { role: "Recommender", content: reply.content },
    };
  }
}

// Each node's instruction opens its system prompt, so the server can tell whose call it got.
const instructions = {
  market: "You are MarketDataProvider, an equity analyst.",
  crypto: "You are CryptoTracker, a crypto market analyst.",
  recommender:
    "You are a portfolio manager. Synthesise the insights; do not fetch data or use tools.",
};

/**
 * Item 3: the reference crew (market and crypto nodes in parallel, then the recommender)
 * against the fake OpenAI-compatible server answering every call after `latencyMs`, through
 * the real `OpenAIChatModel` over HTTP on 127.0.0.1. The critical path is computed from the
 * calls each node actually made, replayed with bare `fetch` in the crew's shape (the two
 * branches at once, then the recommender).
 */
export async function benchCrewWallTime(options: CrewWallTimeOptions): Promise<BenchRow> {
  const directory = await mkdtemp(join(tmpdir(), "framework-bench-crew-"));
  const server = await startFakeLLMServer({
    defaultReply: "Hold a balanced allocation; volatility is elevated.",
    latencyMs: options.latencyMs,
  });
  try {
    const dropLines: Logger = { debug() {}, info() {}, warn() {}, error() {} };
    const llm = new OpenAIChatModel({
      baseURL: server.baseURL,
      apiKey: "bench-not-a-secret",
      model: "fake-model",
      logger: dropLines,
    });
    const nodeOptions = (name: string, instruction: string): AgentNodeOptions => ({
      name,
      llm,
      tools: [],
      description: instruction,
      cwd: directory,
      toolsPath: "tools.json",
      logger: dropLines,
    });
    const market = new MarketDataProvider(nodeOptions("market", instructions.market));
    const crypto = new CryptoTracker(nodeOptions("crypto", instructions.crypto));
    const recommender = new RecommenderAgent(nodeOptions("recommender", instructions.recommender));
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
      logger: dropLines,
    });

    // The model's own latency as a client sees it: the crew's calls replayed with nothing but
    // fetch, in the same shape (both branches at once, then the recommender), so HTTP and the
    // fake server's own handling are not charged to the framework.
    const bareCall = async () => {
      const response = await fetch(`${server.baseURL}/chat/completions`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ model: "fake-model", messages: [{ role: "user", content: "hi" }] }),
      });
      await response.json();
    };
    const bareChain = async (calls: number) => {
      for (let call = 0; call < calls; call++) await bareCall();
    };

    const runs: { wallMs: number; criticalPathMs: number; sequentialCalls: number }[] = [];
    for (let round = 0; round < options.warmup + options.samples; round++) {
      const before = server.chatRequests.length;
      const wallMs = await timeAsync(async () => {
        const state = await crew.invoke("How should I allocate between AAPL and BTC?", {
          userId: "bench",
          threadId: `crew-${round}`,
        });
        if (!state.final_recommendation) throw new Error("the crew wrote no recommendation");
      });
      const calls = (instruction: string) =>
        server.chatRequests
          .slice(before)
          .filter((body) => String(body.messages[0]?.content ?? "").startsWith(instruction)).length;
      const [marketCalls, cryptoCalls, recommenderCalls] = [
        calls(instructions.market),
        calls(instructions.crypto),
        calls(instructions.recommender),
      ];
      const criticalPathMs = await timeAsync(async () => {
        await Promise.all([bareChain(marketCalls), bareChain(cryptoCalls)]);
        await bareChain(recommenderCalls);
      });
      const sequentialCalls = Math.max(marketCalls, cryptoCalls) + recommenderCalls;
      if (round >= options.warmup) runs.push({ wallMs, criticalPathMs, sequentialCalls });
    }

    const sequentialCalls = median(runs.map((run) => run.sequentialCalls));
    const criticalPathMs = median(runs.map((run) => run.criticalPathMs));
    const wallMs = median(runs.map((run) => run.wallMs));
    const ratio = median(runs.map((run) => run.wallMs / run.criticalPathMs));
    const nominalMs = sequentialCalls * options.latencyMs;
    return {
      id: "3",
      title: `Crew wall time, LLM server at ${options.latencyMs} ms/call`,
      ours: { value: wallMs, unit: "ms" },
      reference: {
        value: criticalPathMs,
        unit: "ms",
        label: `critical path, ${sequentialCalls} calls in a row`,
      },
      ratio: `${times(ratio)} critical path`,
      target: "≤ 1.05× critical path",
      verdict: ratio <= 1.05 ? "met" : "missed",
      note:
        "the critical path is the crew's own model calls replayed with bare fetch in the " +
        "crew's shape (market and crypto at once, then the recommender): the " +
        `${sequentialCalls} × ${options.latencyMs} ms of latency plus what HTTP and the fake ` +
        "server take, so only the framework's own time counts against it. Against the " +
        `nominal ${formatNumber(nominalMs)} ms it is ${times(wallMs / nominalMs)}.`,
      details: { latencyMs: options.latencyMs, runs },
    };
  } finally {
    await server.close();
    await rm(directory, { recursive: true, force: true });
  }
}
