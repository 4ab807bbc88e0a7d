export { papersFound, renderPapers } from "./papers-found.js";
export { researchDescription, researchInstruction, researchQuery } from "./research-prompt.js";
export { type ResearchRequest, runResearch } from "./run-research.js";
