import type { NodeContext } from "@framework/graph";
import { reporterOf, type SearchEvent, searchEvent } from "../events/deep-search-event.js";
import { searchConcurrently } from "../search/concurrent-search.js";
import type { NodeDependencies } from "./node-dependencies.js";

/**
 * The web research of one node's step: searches `queries` concurrently, reports a `search`
 * event of `stage` as each search ends, and returns the kept result contents in query order,
 * failed searches left out.
 */
export async function searchStep(
  stage: SearchEvent["stage"],
  queries: readonly string[],
  { search, searchConcurrency }: NodeDependencies,
  { config, signal, logger }: NodeContext,
): Promise<string[]> {
  const report = reporterOf(config);
  const outcomes = await searchConcurrently(queries, {
    search,
    concurrency: searchConcurrency,
    signal,
    logger,
    onOutcome: (outcome) => report(searchEvent(stage, outcome)),
  });
  return outcomes.flatMap((outcome) => (outcome.status === "ok" ? outcome.contents : []));
}
