export {
  type CapturedLine,
  type CapturingLogger,
  createCapturingLogger,
  observeCapturedLines,
} from "./log/capturing-logger.js";
export {
  type LLMRateLimitFaultOptions,
  llmHangFault,
  llmMalformedBodyFault,
  llmRateLimitFault,
  llmServerErrorFault,
  llmStreamCutFault,
} from "./model/fake-llm-faults.js";
export { openAIErrorBody } from "./model/fake-llm-responses.js";
export {
  type FakeLLMReply,
  type FakeLLMServer,
  type StartFakeLLMServerOptions,
  startFakeLLMServer,
} from "./model/fake-llm-server.js";
export {
  type MockCallRecord,
  MockChatModel,
  type MockChatModelOptions,
  type MockReply,
} from "./model/mock-chat-model.js";
export type {
  OpenAIChatRequestBody,
  OpenAIWireMessage,
  OpenAIWireTool,
  OpenAIWireToolCall,
  OpenAIWireUsage,
} from "./model/openai-wire.js";
export {
  mockToolCall,
  type ScriptedAnswer,
  type ScriptedReply,
  type ScriptedReplyValue,
  type ScriptedToolCall,
} from "./model/scripted-reply.js";
export {
  type ReliabilityCounts,
  type ReliabilityReport,
  ReliabilityTally,
  reliabilityReportDirVariable,
} from "./reliability/reliability-tally.js";
export {
  describeSecretLeaks,
  installSecretGuard,
  type SecretGuard,
  type SecretLeak,
} from "./secrets/secret-guard.js";
export {
  fakeTavilyApiKey,
  testCoinDeskApiKey,
  testJwtSecret,
  testLlmApiKey,
  testSecrets,
} from "./secrets/test-secrets.js";
export {
  type FakeHandler,
  type FakeResponse,
  type FakeServer,
  type RecordedRequest,
  type StartFakeServerOptions,
  sendFakeResponse,
  startFakeServer,
} from "./server/fake-server.js";
export {
  type ArxivFeedForm,
  type ArxivFeedQuery,
  type RenderArxivErrorFeedOptions,
  type RenderArxivFeedOptions,
  renderArxivErrorFeed,
  renderArxivFeed,
} from "./servers/arxiv/arxiv-feed.js";
export {
  type ArxivSampleAuthor,
  type ArxivSamplePaper,
  arxivSamplePapers,
} from "./servers/arxiv/arxiv-sample-papers.js";
export {
  type StartFakeArxivServerOptions,
  startFakeArxivServer,
} from "./servers/arxiv/fake-arxiv-server.js";
export {
  type CoinDeskErr,
  coinDeskError,
  coinDeskFaults,
} from "./servers/coindesk/coindesk-faults.js";
export {
  type FakeCoinDeskServer,
  type StartFakeCoinDeskServerOptions,
  startFakeCoinDeskServer,
} from "./servers/coindesk/fake-coindesk-server.js";
export {
  type FakeTavilyServer,
  type StartFakeTavilyServerOptions,
  startFakeTavilyServer,
} from "./servers/tavily/fake-tavily-server.js";
export type { FakeTavilyResult } from "./servers/tavily/tavily-corpus.js";
export { tavilyFaults } from "./servers/tavily/tavily-faults.js";
export {
  type StartFakeVciServerOptions,
  startFakeVciServer,
  vciGapChartPath,
} from "./servers/vci/fake-vci-server.js";
export { vciErrorBody, vciFaults } from "./servers/vci/vci-faults.js";
export {
  type FakeVciMarketOptions,
  generateFakeVciSeries,
  resolveFakeVciSymbol,
  type VciChartRequest,
  type VciOhlcSeries,
  type VciTimeFrame,
  vciTimeFrames,
} from "./servers/vci/vci-price-series.js";
export { defaultFakeVciSymbols, type FakeVciSymbol } from "./servers/vci/vci-symbol-profiles.js";
export {
  type FakeYahooServerOptions,
  startFakeYahooServer,
  yahooTooManyRequests,
} from "./servers/yahoo/fake-yahoo-server.js";
export {
  type YahooChartBodyInput,
  yahooChartBody,
  yahooChartErrorBody,
  yahooInvalidIntervalDescription,
  yahooNotFoundBody,
} from "./servers/yahoo/yahoo-chart-response.js";
export {
  type FakeYahooBar,
  type FakeYahooInterval,
  type FakeYahooMarketOptions,
  type FakeYahooSeriesRequest,
  fakeYahooDailySeries,
  fakeYahooIntervals,
  fakeYahooSeriesStart,
  generateFakeYahooBars,
  isFakeYahooIntraday,
  resolveFakeYahooSymbol,
} from "./servers/yahoo/yahoo-price-series.js";
export {
  defaultFakeYahooSymbols,
  type FakeYahooSymbolProfile,
} from "./servers/yahoo/yahoo-symbol-profiles.js";
