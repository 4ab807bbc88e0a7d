import { EmptyOutlineError } from "../error/empty-outline-error.js";
import { reporterOf, runReporter } from "../events/deep-search-event.js";
import { parseChapterOutline, parseOutline } from "../parse/outline.js";
import { plannerMessages } from "../prompts/planner-prompt.js";
import type { DeepSearchNode, NodeDependencies } from "./node-dependencies.js";

/**
 * The `planner` node: asks for a numbered outline of at most `max_chapters` chapters and keeps
 * the numbered blocks as `plan`, setting `current_chapter_order` to 0 and
 * `number_of_chapters`. Blocks beyond `max_chapters` are dropped, so a model that ignores the
 * limit cannot lengthen the run. With `prefetch`, every chapter's searches start here, so
 * they overlap with the writing of the chapters before it.
 *
 * @throws EmptyOutlineError when the reply holds no numbered block.
 */
export function createPlannerNode({
  llm,
  search,
  searchConcurrency,
  prefetch,
}: NodeDependencies): DeepSearchNode {
  return async (state, context) => {
    const response = await llm.generate({
      messages: plannerMessages(state.task, state.max_chapters),
      signal: context.signal,
    });
    const reply = response.message.content ?? "";
    const plan = parseOutline(reply).slice(0, state.max_chapters);
    if (plan.length === 0) throw new EmptyOutlineError({ reply });
    const run = runReporter(context.config);
    if (prefetch && run) {
      // The run's own signal: the planner's may end with the planner.
      prefetch.start(
        run,
        plan.map((outline) => parseChapterOutline(outline).queries),
        {
          search,
          concurrency: searchConcurrency,
          signal: context.config.signal ?? context.signal,
          logger: context.logger,
        },
      );
    }
    reporterOf(context.config)({
      type: "planned",
      plan,
      titles: plan.map((outline) => parseChapterOutline(outline).title),
    });
    return { plan, current_chapter_order: 0, number_of_chapters: plan.length };
  };
}
