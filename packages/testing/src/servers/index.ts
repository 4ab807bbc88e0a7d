export {
  type ArxivFeedForm,
  type ArxivFeedQuery,
  type RenderArxivErrorFeedOptions,
  type RenderArxivFeedOptions,
  renderArxivErrorFeed,
  renderArxivFeed,
} from "./arxiv/arxiv-feed.js";
export {
  type ArxivSampleAuthor,
  type ArxivSamplePaper,
  arxivSamplePapers,
} from "./arxiv/arxiv-sample-papers.js";
export {
  type StartFakeArxivServerOptions,
  startFakeArxivServer,
} from "./arxiv/fake-arxiv-server.js";
export { type CoinDeskErr, coinDeskError, coinDeskFaults } from "./coindesk/coindesk-faults.js";
export {
  type FakeCoinDeskServer,
  type StartFakeCoinDeskServerOptions,
  startFakeCoinDeskServer,
} from "./coindesk/fake-coindesk-server.js";
export {
  type FakeTavilyServer,
  type StartFakeTavilyServerOptions,
  startFakeTavilyServer,
} from "./tavily/fake-tavily-server.js";
export type { FakeTavilyResult } from "./tavily/tavily-corpus.js";
export { tavilyFaults } from "./tavily/tavily-faults.js";
export {
  type StartFakeVciServerOptions,
  startFakeVciServer,
  vciGapChartPath,
} from "./vci/fake-vci-server.js";
export { vciErrorBody, vciFaults } from "./vci/vci-faults.js";
export {
  type FakeVciMarketOptions,
  generateFakeVciSeries,
  resolveFakeVciSymbol,
  type VciChartRequest,
  type VciOhlcSeries,
  type VciTimeFrame,
  vciTimeFrames,
} from "./vci/vci-price-series.js";
export { defaultFakeVciSymbols, type FakeVciSymbol } from "./vci/vci-symbol-profiles.js";
export {
  fakeZoneDate,
  fakeZonedTime,
  fakeZoneOffsetSeconds,
} from "./yahoo/fake-exchange-clock.js";
export {
  type FakeYahooServerOptions,
  startFakeYahooServer,
  yahooTooManyRequests,
} from "./yahoo/fake-yahoo-server.js";
export {
  type YahooChartBodyInput,
  yahooChartBody,
  yahooChartErrorBody,
  yahooInvalidIntervalDescription,
  yahooNotFoundBody,
  yahooNullMetaBody,
} from "./yahoo/yahoo-chart-response.js";
export {
  type FakeYahooBar,
  type FakeYahooInterval,
  type FakeYahooMarketOptions,
  type FakeYahooSeriesRequest,
  fakeYahooDailySeries,
  fakeYahooIntervals,
  fakeYahooSeriesStart,
  fakeYahooSessionSeconds,
  generateFakeYahooBars,
  isFakeYahooIntraday,
  resolveFakeYahooSymbol,
} from "./yahoo/yahoo-price-series.js";
export {
  defaultFakeYahooSymbols,
  type FakeYahooSymbolProfile,
} from "./yahoo/yahoo-symbol-profiles.js";
