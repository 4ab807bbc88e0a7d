import { appToolSettings } from "@framework/cli-kit";
import type { ChatModel, Logger, ToolApprovalRequest } from "@framework/core";
import {
  type Checkpointer,
  CrewAgent,
  END,
  FlowStateGraph,
  MemorySaver,
  START,
} from "@framework/graph";
import { createStockTools } from "@framework/tools-finance";
import { cryptoInstruction, marketInstruction, recommenderInstruction } from "./crew-prompts.js";
import { CryptoTracker } from "./nodes/crypto-tracker.js";
import { MarketDataProvider } from "./nodes/market-data-provider.js";
import { RecommenderAgent } from "./nodes/recommender-agent.js";
import { crewToolsAskingFirst } from "./tools-asking-first.js";
import { TradingState } from "./trading-state.js";

/**
 * The tool modules registered on every node: each agent in a crew needs every tool it might be
 * asked for, so the reference practice registers the shared tools on all of them.
 */
export const sharedCrewTools = [
  "@framework/tools-finance",
  "@framework/tools-crypto",
  "@framework/tools-websearch",
  "@framework/tools-time",
] as const;

/** Options of {@link createTradingCrew}. */
export interface TradingCrewOptions {
  llm: ChatModel;
  /** The logger of a node (`market`, `crypto`, `recommender`) or of the crew (`crew`). */
  loggerFor?: (scope: string) => Logger;
  /** The tool registry file. Default `templates/tools.json` in the working directory. */
  toolsPath?: string;
  /**
   * Where the crew saves its checkpoints. Default a `MemorySaver` (threads end with the
   * process); the command line passes a `SqliteSaver`, so threads outlive it.
   */
  checkpointer?: Checkpointer;
  /**
   * Decides calls of the tools that ask first (`crewToolsAskingFirst`), for the node that
   * made them. Without it such a call interrupts the run with a `ToolApprovalInterrupt`,
   * answered by `resume(true | false)`.
   */
  approveToolCall?: (call: ToolApprovalRequest, node: string) => boolean | Promise<boolean>;
}

/** The crew and its three nodes. */
export interface TradingCrew {
  crew: CrewAgent<typeof TradingState>;
  market: MarketDataProvider;
  crypto: CryptoTracker;
  recommender: RecommenderAgent;
}

/**
 * Builds the multi-market advisory crew of the specification: `MarketDataProvider` and
 * `CryptoTracker` start together from START, `RecommenderAgent` waits for both and ends the
 * run, over `TradingState` with the given checkpointer. Every node gets the shared tools, plus
 * `fetch_stock_data_vn` registered at runtime through its `toolRegistry`, and the tools that
 * ask before they run (`crewToolsAskingFirst`) in place of the modules' own. Resolves once
 * every node's tools are registered.
 */
export async function createTradingCrew(options: TradingCrewOptions): Promise<TradingCrew> {
  const loggerFor = options.loggerFor;
  const settings = appToolSettings(import.meta.url);
  const common = {
    llm: options.llm,
    tools: sharedCrewTools,
    toolsPath: options.toolsPath ?? settings.toolsPath,
    cwd: settings.cwd,
  };
  const withLogger = (scope: string) => (loggerFor ? { logger: loggerFor(scope) } : {});
  const { approveToolCall } = options;
  const withApproval = (node: string) =>
    approveToolCall
      ? { approveToolCall: (call: ToolApprovalRequest) => approveToolCall(call, node) }
      : {};
  // The first node starts the registry file afresh; the others write theirs after it.
  const market = new MarketDataProvider({
    name: "market",
    description: marketInstruction,
    resetTools: true,
    ...common,
    ...withLogger("market"),
    ...withApproval("market"),
  });
  await market.ready;
  const crypto = new CryptoTracker({
    name: "crypto",
    description: cryptoInstruction,
    ...common,
    ...withLogger("crypto"),
    ...withApproval("crypto"),
  });
  const recommender = new RecommenderAgent({
    name: "recommender",
    description: recommenderInstruction,
    memory: true,
    ...common,
    ...withLogger("recommender"),
    ...withApproval("recommender"),
  });
  // No options: the app's VCI_API_URL and VCI_TIMEOUT_MS (a fake's, offline) apply per call.
  const { fetch_stock_data_vn } = createStockTools();
  for (const node of [market, crypto, recommender]) {
    node.toolRegistry.registerFunctionTool(fetch_stock_data_vn);
  }
  await Promise.all([crypto.ready, recommender.ready]);
  // After the modules, whose own copies of these tools they replace.
  for (const node of [market, crypto, recommender]) {
    for (const tool of crewToolsAskingFirst) node.toolRegistry.registerFunctionTool(tool);
  }
  const crew = new CrewAgent({
    checkpointer: options.checkpointer ?? new MemorySaver(),
    graph: new FlowStateGraph(TradingState),
    flow: [
      START.to(market),
      START.to(crypto),
      market.to(recommender),
      crypto.to(recommender),
      recommender.to(END),
    ],
    ...withLogger("crew"),
  });
  return { crew, market, crypto, recommender };
}
