export {
  createTradingCrew,
  sharedCrewTools,
  type TradingCrew,
  type TradingCrewOptions,
} from "./create-trading-crew.js";
export {
  cryptoInstruction,
  cryptoPrompt,
  marketInstruction,
  marketPrompt,
  recommenderInstruction,
  recommenderPrompt,
} from "./crew-prompts.js";
export { type CrewFinalState, crewFinalState, renderCrewReport } from "./crew-report.js";
export { CryptoTracker } from "./nodes/crypto-tracker.js";
export { MarketDataProvider } from "./nodes/market-data-provider.js";
export { RecommenderAgent } from "./nodes/recommender-agent.js";
export {
  Position,
  Recommendation,
  renderRecommendation,
} from "./recommendation.js";
export { type AskApproval, type CrewRequest, runCrew } from "./run-crew.js";
export {
  askingFirst,
  crewToolsAskingFirst,
  offlineApprovalNote,
} from "./tools-asking-first.js";
export {
  CrewMessage,
  RecommendationIssue,
  type Trading,
  TradingState,
  type TradingUpdate,
} from "./trading-state.js";
export { fetch_stock_data_vn, vnPriceTableToText } from "./vn-stock/fetch-stock-data-vn.js";
