import type { NodeContext } from "@framework/graph";
import { reporterOf, type SearchEvent, searchEvent } from "../events/deep-search-event.js";
import type { SourcedNote } from "../report/cite-sources.js";
import { type QuerySearchOutcome, searchConcurrently } from "../search/concurrent-search.js";
import type { NodeDependencies } from "./node-dependencies.js";

/**
 * The web research of one node's step: searches `queries` concurrently, reports a `search`
 * event of `stage` as each search ends, and returns the kept results (content and URL) in
 * query order, failed searches left out. With `prefetched` (the same queries' searches, started earlier)
 * it waits for those instead and reports their events in query order.
 */
export async function searchStep(
  stage: SearchEvent["stage"],
  queries: readonly string[],
  { search, searchConcurrency }: NodeDependencies,
  { config, signal, logger }: NodeContext,
  prefetched?: Promise<QuerySearchOutcome[]>,
): Promise<SourcedNote[]> {
  const report = reporterOf(config);
  if (prefetched) {
    const outcomes = await prefetched;
    for (const outcome of outcomes) report(searchEvent(stage, outcome));
    return keptContents(outcomes);
  }
  const outcomes = await searchConcurrently(queries, {
    search,
    concurrency: searchConcurrency,
    signal,
    logger,
    onOutcome: (outcome) => report(searchEvent(stage, outcome)),
  });
  return keptContents(outcomes);
}

function keptContents(outcomes: readonly QuerySearchOutcome[]): SourcedNote[] {
  return outcomes.flatMap((outcome) =>
    outcome.status === "ok"
      ? outcome.contents.map((content, index) => ({ content, url: outcome.urls[index] ?? "" }))
      : [],
  );
}
