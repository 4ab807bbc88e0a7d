import { reporterOf } from "../events/deep-search-event.js";
import { parseCritiqueQueries } from "../parse/critique-queries.js";
import { critiqueQueriesMessages } from "../prompts/critique-queries-prompt.js";
import { citeNotes } from "../report/cite-sources.js";
import type { DeepSearchNode, NodeDependencies } from "./node-dependencies.js";
import { searchStep } from "./search-step.js";

/**
 * The `research_critique` node: the model turns `critique` into at most
 * `max_critical_queries` numbered queries (quoted text is the query), each is searched (2
 * results, concurrently), and the contents, in query order and labelled with their source
 * numbers (`[n] `, new URLs joining `sources`), become `adjustment`.
 */
export function createResearchCritiqueNode(dependencies: NodeDependencies): DeepSearchNode {
  const { llm } = dependencies;
  return async (state, context) => {
    const response = await llm.generate({
      messages: critiqueQueriesMessages(state.task, state.critique, state.max_critical_queries),
      signal: context.signal,
    });
    const queries = parseCritiqueQueries(
      response.message.content ?? "",
      state.max_critical_queries,
    );
    reporterOf(context.config)({ type: "critique-queries", queries });
    const found = await searchStep("critique", queries, dependencies, context);
    const { notes, sources } = citeNotes(state.sources, found);
    return { adjustment: notes, sources };
  };
}
