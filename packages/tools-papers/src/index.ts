export type { PaperInfo } from "./paper-info.js";
export { createPaperResearchTool, paper_research } from "./paper-research.js";
export type { PaperResearchToolOptions } from "./paper-research-options.js";
export type { PaperResearchResult } from "./paper-research-result.js";
