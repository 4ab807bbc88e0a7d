import {
  AbortedError,
  type ChatModel,
  FrameworkError,
  OpenAIChatModel,
  primaryFunction,
  redactSecrets,
} from "@framework/core";
import type { WebSearch } from "@framework/tools-websearch";
import { z } from "zod";
import { DeepSearch } from "./deep-search.js";
import type { DeepSearchReporter } from "./events/deep-search-event.js";
import { defaultDeepSearchLimits } from "./state/run-input.js";

/**
 * Options of {@link createDeepSearchTool} and {@link configureDeepSearch}: what
 * `deepsearch_tool` runs with; anything unset comes from the environment per call.
 */
export interface DeepSearchToolOptions {
  /** The model of the workflow. Default: `new OpenAIChatModel()` (`LLM_API_KEY`, `LLM_API_URL`, `LLM_MODEL`). */
  llm?: ChatModel;
  /** The web search. Default: Tavily (`TAVILY_API_KEY`, `TAVILY_API_URL`). */
  search?: WebSearch;
  /** Searches of one step in flight at once; default 4. */
  searchConcurrency?: number;
  /**
   * Receives each call's progress as typed events (outline, each chapter's searches, its
   * writing, each critique and revision), e.g. for an app's progress display.
   */
  onEvent?: DeepSearchReporter;
}

/**
 * @deprecated Use {@link DeepSearchToolOptions} (the same type); this name goes away in the
 * next minor version.
 */
export type DeepSearchToolConfig = DeepSearchToolOptions;

// Bounds keep a model that picks the arguments from starting a run of hundreds of calls.
const parameters = z.object({
  query: z.string().trim().min(1).describe("The question or topic the report must answer"),
  max_chapters: z
    .number()
    .int()
    .min(1)
    .max(10)
    .default(defaultDeepSearchLimits.maxChapters)
    .describe("Most chapters in the report"),
  max_paragraphs_per_chapter: z
    .number()
    .int()
    .min(1)
    .max(10)
    .default(defaultDeepSearchLimits.maxParagraphsPerChapter)
    .describe("Most paragraphs per chapter"),
  max_critical_queries: z
    .number()
    .int()
    .min(1)
    .max(10)
    .default(defaultDeepSearchLimits.maxCriticalQueries)
    .describe("Most web searches made to address each critique"),
  max_revisions: z
    .number()
    .int()
    .min(1)
    .max(3)
    .default(defaultDeepSearchLimits.maxRevisions)
    .describe("Drafts per chapter: 1 writes each chapter once, 2 revises it once"),
});

const description =
  "Write a multi-chapter research report on a query, researched on the web.\n" +
  "Plans chapters with web-search queries, searches the web for each chapter, writes it, " +
  "critiques it and revises it with further searches. It makes several model calls per " +
  "chapter, so use it for in-depth reports, not quick facts. Returns the report in Markdown: " +
  "'# I. Planning' (chapter titles and queries), '# II. Results' (the chapters, citing " +
  "sources as [1], [2]...), then '# III. Sources' (the numbered URLs).";

// The agent's model reads this text, so it says what went wrong; nothing is thrown.
function describeFailure(error: unknown): string {
  if (AbortedError.isInstance(error)) return "Deep search was cancelled.";
  if (FrameworkError.isInstance(error)) return `Deep search failed: ${error.message}`;
  const message = error instanceof Error ? error.message : String(error);
  return `Deep search failed: ${redactSecrets(message)}`;
}

function buildDeepSearchTool(optionsOf: () => DeepSearchToolOptions) {
  return primaryFunction(
    { name: "deepsearch_tool", description, parameters, returns: "str: the report" },
    async (args, context): Promise<string> => {
      const options = optionsOf();
      try {
        // Built per call, never at import: a missing key surfaces here, as a failure text.
        const deepSearch = new DeepSearch({
          llm: options.llm ?? new OpenAIChatModel({ logger: context.logger }),
          search: options.search,
          logger: context.logger,
          searchConcurrency: options.searchConcurrency,
        });
        return await deepSearch.streamingResponse(args.query, {
          maxChapters: args.max_chapters,
          maxParagraphsPerChapter: args.max_paragraphs_per_chapter,
          maxCriticalQueries: args.max_critical_queries,
          maxRevisions: args.max_revisions,
          signal: context.signal,
          ...(options.onEvent ? { onEvent: options.onEvent } : {}),
        });
      } catch (error) {
        const failure = describeFailure(error);
        context.logger.warn(`deepsearch_tool failed: ${failure}`);
        return failure;
      }
    },
  );
}

let configured: DeepSearchToolOptions = {};

/**
 * Sets what {@link deepsearch_tool} runs with from now on, for the whole process (an empty
 * object returns to the environment defaults), and returns the previous setting, so it can be
 * restored. A program serving several tenants uses {@link createDeepSearchTool} instead.
 *
 * @example
 * configureDeepSearch({ llm: new OpenAIChatModel({ model: "gpt-4o-mini" }) });
 */
export function configureDeepSearch(options: DeepSearchToolOptions): DeepSearchToolOptions {
  const previous = configured;
  configured = { ...options };
  return previous;
}

/**
 * Creates a `deepsearch_tool` bound to its own model and search (for instance
 * `createTavilySearch({ apiKey, baseURL })` of `@framework/tools-websearch`), so a program
 * serving several tenants configures each without environment variables. Name, arguments,
 * report and failure texts are those of {@link deepsearch_tool}, which follows
 * {@link configureDeepSearch}.
 *
 * @example
 * const deepSearch = createDeepSearchTool({
 *   llm: new OpenAIChatModel({ apiKey: tenant.llmKey, baseURL: tenant.llmURL }),
 *   search: createTavilySearch({ apiKey: tenant.tavilyKey }),
 * });
 */
export function createDeepSearchTool(options: DeepSearchToolOptions = {}) {
  const own = { ...options };
  return buildDeepSearchTool(() => own);
}

/**
 * Writes a multi-chapter research report on `query` with the deep-search workflow (plan,
 * search, write, critique, revise) and returns it in the spec's format. Defaults:
 * `max_chapters` 4, `max_paragraphs_per_chapter` 5, `max_critical_queries` 3, `max_revisions`
 * 1. Each call runs on a fresh in-memory thread, so concurrent calls never share state.
 * Every failure, a missing `LLM_API_KEY` or `TAVILY_API_KEY` included, comes back as a text
 * starting `Deep search failed: ` (or `Deep search was cancelled.`), never as a thrown error.
 */
export const deepsearch_tool = buildDeepSearchTool(() => configured);
