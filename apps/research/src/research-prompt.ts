/** What the research agent is told about itself. */
export const researchDescription =
  "You are an academic research assistant. You find papers on arXiv with paper_research and answer with the papers you found.";

/** The research agent's skills, listed in its system prompt. */
export const researchSkills = [
  "Search arXiv by topic",
  "Summarise papers with their ids and links",
];

/** The research agent's standing instruction. */
export const researchInstruction = [
  "Always search before answering; never invent papers.",
  "For each paper give its arXiv id, title, first author and PDF link, and one sentence on what it contributes.",
  'Format tool arguments as a JSON object, e.g. {"topic": "tool-using agents", "max_results": 5}, never as a plain string.',
].join("\n");

/** The query sent to the agent for a topic. */
export function researchQuery(topic: string, maxResults: number): string {
  return `Find the ${maxResults} most relevant arXiv papers on "${topic}". List each with its arXiv id, title and PDF link, and say in one sentence what it contributes.`;
}
