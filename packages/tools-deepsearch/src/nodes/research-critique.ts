import { reporterOf, searchEvent } from "../events/deep-search-event.js";
import { parseCritiqueQueries } from "../parse/critique-queries.js";
import { critiqueQueriesMessages } from "../prompts/critique-queries-prompt.js";
import { searchConcurrently } from "../search/concurrent-search.js";
import type { DeepSearchNode, NodeDependencies } from "./node-dependencies.js";

/**
 * The `research_critique` node: the model turns `critique` into at most
 * `max_critical_queries` numbered queries (quoted text is the query), each is searched (2
 * results, concurrently), and the contents, in query order, become `adjustment`.
 */
export function createResearchCritiqueNode(dependencies: NodeDependencies): DeepSearchNode {
  const { llm, search, searchConcurrency } = dependencies;
  return async (state, context) => {
    const { logger, signal } = context;
    const report = reporterOf(context.config);
    const response = await llm.generate({
      messages: critiqueQueriesMessages(state.task, state.critique, state.max_critical_queries),
      signal,
    });
    const queries = parseCritiqueQueries(
      response.message.content ?? "",
      state.max_critical_queries,
    );
    report({ type: "critique-queries", queries });
    const outcomes = await searchConcurrently(queries, {
      search,
      concurrency: searchConcurrency,
      signal,
      logger,
      onOutcome: (outcome) => report(searchEvent("critique", outcome)),
    });
    return {
      adjustment: outcomes.flatMap((outcome) => (outcome.status === "ok" ? outcome.contents : [])),
    };
  };
}
