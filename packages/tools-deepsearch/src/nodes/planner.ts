import { EmptyOutlineError } from "../error/empty-outline-error.js";
import { reporterOf } from "../events/deep-search-event.js";
import { parseChapterOutline, parseOutline } from "../parse/outline.js";
import { plannerMessages } from "../prompts/planner-prompt.js";
import type { DeepSearchNode, NodeDependencies } from "./node-dependencies.js";

/**
 * The `planner` node: asks for a numbered outline of at most `max_chapters` chapters and keeps
 * the numbered blocks as `plan`, setting `current_chapter_order` to 0 and
 * `number_of_chapters`. Blocks beyond `max_chapters` are dropped, so a model that ignores the
 * limit cannot lengthen the run.
 *
 * @throws EmptyOutlineError when the reply holds no numbered block.
 */
export function createPlannerNode({ llm }: NodeDependencies): DeepSearchNode {
  return async (state, context) => {
    const response = await llm.generate({
      messages: plannerMessages(state.task, state.max_chapters),
      signal: context.signal,
    });
    const reply = response.message.content ?? "";
    const plan = parseOutline(reply).slice(0, state.max_chapters);
    if (plan.length === 0) throw new EmptyOutlineError({ reply });
    reporterOf(context.config)({
      type: "planned",
      plan,
      titles: plan.map((outline) => parseChapterOutline(outline).title),
    });
    return { plan, current_chapter_order: 0, number_of_chapters: plan.length };
  };
}
