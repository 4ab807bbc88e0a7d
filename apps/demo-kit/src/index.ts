export {
  type DateRange,
  dateOfCurrentTime,
  rangeEndingOn,
  rangeInText,
} from "./offline/analysis-dates.js";
export { ChatRequest, callTools, type ToolResult } from "./offline/chat-request.js";
export {
  type FakeServices,
  type StartFakeServicesOptions,
  startFakeServices,
} from "./offline/fake-services.js";
export { findTickers, vietnameseTickers } from "./offline/find-tickers.js";
export { onlySampleQuestions } from "./offline/sample-questions.js";
export {
  type BtcFigures,
  type ChartFigures,
  type PriceFigures,
  readBtcFigures,
  readChartFigures,
  readPriceFigures,
  readSearchGist,
} from "./offline/tool-text.js";
