import type { ChatMessage } from "@framework/core";

/** Words a critique may have: the spec asks for under 200. */
export const MAX_CRITIQUE_WORDS = 199;

/** The editor's request: a concrete critique of the draft in under 200 words. */
export function reflectMessages(task: string, draft: string): ChatMessage[] {
  const system = `You are an editor reviewing one chapter of a research report.

Critique the draft in under 200 words. Point out missing or outdated facts, claims without support, vague statements that need figures, dates or sources, and gaps in the reasoning. Say concretely what a revision should add, check or change. Do not rewrite the chapter.

Reply with the critique only.`;
  return [
    { role: "system", content: system },
    { role: "user", content: `Task of the report: ${task}\n\nDraft chapter:\n${draft}` },
  ];
}
