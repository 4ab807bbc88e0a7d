export {
  createResearchAgent,
  type ResearchAgentOptions,
} from "./create-research-agent.js";
export { papersFound, renderPapers } from "./papers-found.js";
export {
  researchDescription,
  researchInstruction,
  researchQuery,
  researchSkills,
} from "./research-prompt.js";
export { type ResearchRequest, runResearch } from "./run-research.js";
