import { reporterOf, runReporter } from "../events/deep-search-event.js";
import { parseChapterOutline } from "../parse/outline.js";
import { writerMessages } from "../prompts/writer-prompt.js";
import { citeNotes } from "../report/cite-sources.js";
import type { DeepSearchNode, NodeDependencies } from "./node-dependencies.js";
import { searchStep } from "./search-step.js";

function withAbsent(list: readonly string[], items: readonly string[]): string[] {
  const next = [...list];
  for (const item of items) if (!next.includes(item)) next.push(item);
  return next;
}

/**
 * The `generate` node: writes one draft of the chapter at `current_chapter_order`. The
 * outline's first line is the title, every further line a query; the title and the queries
 * join `sections` when absent; each query is searched (2 results, concurrently) and each
 * result numbered by its URL in `sources` (new ones appended), so the chapter cites it as
 * `[n]`; the model
 * writes at most `max_paragraphs_per_chapter` paragraphs from the results, the previous
 * content, `critique` and `adjustment`. `"<title> \n <text>"` becomes the chapter's entry in
 * `chapters` (a revision replaces the earlier draft's entry) and `draft` the text. Then the
 * revision counter: at `max_revisions` the chapter advances and `revision_number` returns to
 * 1, else `revision_number` grows by one.
 */
export function createGenerateNode(dependencies: NodeDependencies): DeepSearchNode {
  const { llm } = dependencies;
  return async (state, context) => {
    const { logger, signal } = context;
    const report = reporterOf(context.config);
    const order = state.current_chapter_order;
    const outline = state.plan[order];
    if (outline === undefined) {
      throw new Error(
        `The plan has no chapter at position ${order} (it holds ${state.plan.length}); run the planner first.`,
      );
    }
    const { title, queries } = parseChapterOutline(outline);
    const revision = state.revision_number;
    logger.info(`Chapter title: ${title}`);
    logger.info(`revision_number: ${revision}`);
    const chapter = order + 1;
    report({
      type: "chapter-start",
      chapter,
      chapterCount: state.number_of_chapters,
      title,
      revision,
      queries,
    });

    // A first draft takes the searches the planner started for it; revisions search again.
    const run = runReporter(context.config);
    const prefetched =
      run && revision === 1 ? dependencies.prefetch?.take(run, order, queries) : undefined;
    const found = await searchStep("chapter", queries, dependencies, context, prefetched);
    const { notes, sources } = citeNotes(state.sources, found);
    report({ type: "chapter-writing", chapter, title, revision, notes: notes.length });
    const response = await llm.generate({
      messages: writerMessages({
        task: state.task,
        outline,
        title,
        maxParagraphs: state.max_paragraphs_per_chapter,
        notes,
        previousContent: state.draft,
        // revision_number returns to 1 whenever a chapter advances, so above 1 the draft in
        // the state is this chapter's own.
        revising: revision > 1,
        critique: state.critique,
        adjustment: state.adjustment,
      }),
      signal,
    });
    const text = (response.message.content ?? "").trim();
    report({ type: "chapter-written", chapter, title, revision, text });

    const finished = revision >= state.max_revisions;
    return {
      sections: withAbsent(state.sections, [title, ...queries]),
      chapters: [...state.chapters.slice(0, order), `${title} \n ${text}`],
      draft: text,
      sources,
      current_chapter_order: finished ? order + 1 : order,
      revision_number: finished ? 1 : revision + 1,
    };
  };
}
