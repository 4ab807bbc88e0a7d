export { formatReport } from "./format-report.js";
