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
import type { LoadGuardOptions } from "./load-guard.js";
import { measurePaired, perPair } from "./paired.js";
import { formatNumber, type MeasuredRow, measuredRow, times } from "./report.js";
import { medianEstimate, type Repetitions, timeAsync } from "./stats.js";
import { target } from "./target.js";

/** Settings of {@link benchCrewWallTime}. */
export interface CrewWallTimeOptions {
  /** The fake LLM server's delay per call; the issue says 300 ms. */
  readonly latencyMs: number;
  /** Pairs of a crew run and the replay of its calls. */
  readonly repetitions: Repetitions;
  readonly guard: LoadGuardOptions;
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
 * the real `OpenAIChatModel` over HTTP on 127.0.0.1, each run paired with its critical path:
 * the calls each node actually made, replayed with bare `fetch` in the crew's shape (the two
 * branches at once, then the recommender).
 */
export async function benchCrewWallTime(options: CrewWallTimeOptions): Promise<MeasuredRow> {
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

    // The calls the last crew run made per node: the replay repeats them. The first pair runs
    // the crew first, so there always is one; the counts do not change from run to run.
    let lastCalls: { market: number; crypto: number; recommender: number } | undefined;
    let round = 0;
    const crewRun = async () => {
      const before = server.chatRequests.length;
      const wallMs = await timeAsync(async () => {
        const state = await crew.invoke("How should I allocate between AAPL and BTC?", {
          userId: "bench",
          threadId: `crew-${++round}`,
        });
        if (!state.final_recommendation) throw new Error("the crew wrote no recommendation");
      });
      const calls = (instruction: string) =>
        server.chatRequests
          .slice(before)
          .filter((body) => String(body.messages[0]?.content ?? "").startsWith(instruction)).length;
      lastCalls = {
        market: calls(instructions.market),
        crypto: calls(instructions.crypto),
        recommender: calls(instructions.recommender),
      };
      const sequentialCalls = Math.max(lastCalls.market, lastCalls.crypto) + lastCalls.recommender;
      return { value: wallMs, observed: { sequentialCalls } };
    };
    const replay = () => {
      const calls = lastCalls;
      if (!calls) throw new Error("the replay ran before any crew run");
      return timeAsync(async () => {
        await Promise.all([bareChain(calls.market), bareChain(calls.crypto)]);
        await bareChain(calls.recommender);
      });
    };
    const result = await measurePaired(crewRun, replay, {
      ...options.repetitions,
      better: "lower",
      guard: options.guard,
    });

    const sequentialCalls = result.observed.ours.sequentialCalls!.median;
    const wallMs = result.ours.median;
    const overCriticalPath = medianEstimate(
      perPair(result, (crewMs, replayMs) => crewMs / replayMs),
      "×",
    );
    const nominalMs = sequentialCalls * options.latencyMs;
    return measuredRow({
      id: "3",
      title: `Crew wall time, LLM server at ${options.latencyMs} ms/call`,
      ours: { value: wallMs, unit: "ms" },
      reference: {
        value: result.peer.median,
        unit: "ms",
        label: `critical path, ${sequentialCalls} calls in a row`,
      },
      ratio: `${times(overCriticalPath.value)} critical path`,
      target: target("≤ 1.05× critical path", "overCriticalPath", "<=", 1.05),
      metrics: { overCriticalPath },
      load: result.load,
      memory: result.memory,
      note:
        "the critical path is the crew's own model calls replayed with bare fetch in the " +
        "crew's shape (market and crypto at once, then the recommender), paired with each " +
        `crew run: the ${sequentialCalls} × ${options.latencyMs} ms of latency plus what HTTP ` +
        "and the fake server take, so only the framework's own time counts against it. " +
        `Against the nominal ${formatNumber(nominalMs)} ms it is ${times(wallMs / nominalMs)}.`,
      details: { latencyMs: options.latencyMs, ...result },
    });
  } finally {
    await server.close();
    await rm(directory, { recursive: true, force: true });
  }
}
