import type { Logger } from "@framework/core";
import type { WebSearch } from "@framework/tools-websearch";
import { type QuerySearchOutcome, searchConcurrently } from "./concurrent-search.js";

/** One chapter's searches, started early. */
interface PendingChapter {
  readonly queries: readonly string[];
  readonly outcomes: Promise<QuerySearchOutcome[]>;
}

/** What {@link ChapterPrefetch.start} searches with. */
export interface ChapterPrefetchOptions {
  readonly search: WebSearch;
  readonly concurrency: number;
  readonly signal?: AbortSignal;
  readonly logger: Logger;
}

/**
 * Each chapter's searches, started as soon as the outline is known instead of when the
 * chapter's first draft begins, so they overlap with the writing and critiquing of the
 * chapters before it. Chapters are searched one after the other, in order, each with the
 * step's concurrency, so at most that many prefetch searches are in flight. A run is
 * identified by an object unique to it (its event reporter); entries are taken once, by the
 * chapter's first draft: revisions search again, as the spec's flow does.
 */
export class ChapterPrefetch {
  readonly #runs = new WeakMap<object, Map<number, PendingChapter>>();

  /** Starts searching `chapters` (by position in the plan) for the run `run`. */
  start(run: object, chapters: readonly (readonly string[])[], options: ChapterPrefetchOptions) {
    const pending = new Map<number, PendingChapter>();
    let previous: Promise<unknown> = Promise.resolve();
    chapters.forEach((queries, order) => {
      const outcomes = previous.then(() =>
        searchConcurrently(queries, {
          search: options.search,
          concurrency: options.concurrency,
          signal: options.signal,
          logger: options.logger,
        }),
      );
      // A failure surfaces when the chapter takes its searches; the next chapter still runs.
      previous = outcomes.catch(() => {});
      pending.set(order, { queries, outcomes });
    });
    this.#runs.set(run, pending);
  }

  /**
   * The searches started for chapter `order` of `run`, if they were started for exactly
   * `queries`; each is handed out once.
   */
  take(
    run: object,
    order: number,
    queries: readonly string[],
  ): Promise<QuerySearchOutcome[]> | undefined {
    const chapters = this.#runs.get(run);
    const pending = chapters?.get(order);
    if (!pending) return undefined;
    chapters!.delete(order);
    const same =
      pending.queries.length === queries.length &&
      pending.queries.every((query, index) => query === queries[index]);
    if (same) return pending.outcomes;
    pending.outcomes.catch(() => {});
    return undefined;
  }
}
