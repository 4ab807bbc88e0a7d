import type { ChatMessage } from "@framework/core";

/** What the writer gets for one draft of a chapter. */
export interface WriterInput {
  /** The report's task. */
  task: string;
  /** The chapter's outline: title line and query lines. */
  outline: string;
  title: string;
  maxParagraphs: number;
  /** Contents of this step's searches, in query order, each `[n] ` and its source's number. */
  notes: readonly string[];
  /** The previous draft: of this chapter when revising, else of the chapter before. */
  previousContent: string;
  /** Whether `previousContent` is this chapter's own earlier draft. */
  revising: boolean;
  /** The editor's critique of `previousContent`. */
  critique: string;
  /** Contents of the searches made for the critique, each `[n] ` and its source's number. */
  adjustment: readonly string[];
}

// Notes come numbered by their source for the whole report, so a citation means one source.
const numberedNotes = (notes: readonly string[]) => notes.join("\n\n");

/**
 * The writer's request for one chapter: at most `maxParagraphs` paragraphs of prose grounded
 * in the research notes, using the previous content, the critique and the critique's
 * research. When revising, the earlier draft is to be improved; otherwise the previous
 * chapter is context to continue from and the critique lists weaknesses to avoid.
 */
export function writerMessages(input: WriterInput): ChatMessage[] {
  const system = `You are a research writer. You write one chapter of a report at a time, in the language of the report's task.

Rules:
- Write at most ${input.maxParagraphs} paragraphs of clear, well-organised prose, separated by blank lines.
- Take facts, figures and dates from the research notes; never invent numbers or sources. Cite the note each fact comes from with its number in brackets, e.g. [2], right after the fact. When the notes do not cover a point of the outline, say briefly that it could not be confirmed instead of guessing.
- Cover the chapter's outline and stay within its scope; do not repeat what the previous content already said.
- Do not write the chapter title and do not add headings: the report adds the title itself.
- Reply with the chapter text only.`;

  const parts = [
    `Task of the report: ${input.task}`,
    `Chapter to write: ${input.title}\nChapter outline:\n${input.outline}`,
    input.notes.length > 0
      ? `Research notes:\n${numberedNotes(input.notes)}`
      : "Research notes: none were found. Write from well-established knowledge and be careful with figures.",
  ];
  if (input.previousContent) {
    parts.push(
      input.revising
        ? `Your earlier draft of this chapter:\n${input.previousContent}`
        : `The previous chapter, for continuity (do not repeat it):\n${input.previousContent}`,
    );
  }
  if (input.critique) {
    parts.push(
      input.revising
        ? `The editor's critique of your earlier draft:\n${input.critique}`
        : `The editor's critique of the previous chapter (avoid the same weaknesses):\n${input.critique}`,
    );
  }
  if (input.adjustment.length > 0) {
    parts.push(`Further research prompted by the critique:\n${numberedNotes(input.adjustment)}`);
  }
  parts.push(
    input.revising
      ? "Rewrite the chapter: keep what is right in the earlier draft and address every point of the critique."
      : "Write the chapter.",
  );
  return [
    { role: "system", content: system },
    { role: "user", content: parts.join("\n\n") },
  ];
}
