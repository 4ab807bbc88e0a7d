export {
  chartsDrawn,
  type DrawnChart,
  renderCharts,
  reportsWritten,
} from "./finance-outputs.js";
export { financeDescription, financeInstruction, financeSkills } from "./finance-prompt.js";
export { runFinance } from "./run-finance.js";
