export type { PaperInfo } from "./paper-info.js";
export { paper_research } from "./paper-research.js";
export type { PaperResearchResult } from "./paper-research-result.js";
