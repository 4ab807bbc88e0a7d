export { createFinanceAgent, type FinanceAgentOptions } from "./create-finance-agent.js";
export {
  chartsDrawn,
  type DrawnChart,
  renderCharts,
  reportsWritten,
} from "./finance-outputs.js";
export { financeDescription, financeInstruction, financeSkills } from "./finance-prompt.js";
export {
  type FinanceAnswer,
  FinanceReport,
  renderFinanceAnswer,
  renderFinanceReport,
  StockFigures,
} from "./finance-report.js";
export { type FinanceRequest, runFinance } from "./run-finance.js";
