import { redactSecrets } from "@framework/core";
import { benchAgentLoop } from "./agent-loop.js";
import { benchCheckpointGrowth } from "./checkpoint-growth.js";
import { benchCheckpointers } from "./checkpointers.js";
import { benchColdStart } from "./cold-start.js";
import { benchCrewWallTime } from "./crew-wall-time.js";
import { benchDeepSearch } from "./deep-search.js";
import { benchGraphEngine } from "./graph-engine.js";
import { benchGraphScale } from "./graph-scale.js";
import { benchGraphThreads } from "./graph-threads.js";
import { benchRegistry } from "./registry.js";
import type { BenchRow, FailedRow, RowError } from "./report.js";
import { benchServer } from "./server.js";
import {
  type BenchService,
  checkServices,
  configuredServiceUrls,
  type ServiceStatuses,
  type ServiceUrls,
} from "./services.js";
import type { BenchSettings } from "./settings.js";

/** One item of the suite: what it measures, what it needs, and how to run it. */
export interface BenchItem {
  /** The ids of its rows as the table numbers them (`2a–2c`): the id of its row if it fails. */
  readonly id: string;
  readonly title: string;
  /** Servers its rows measure against: checked before any item runs. */
  readonly services?: readonly BenchService[];
  /**
   * Its rows. A row that cannot be measured here (a server missing from `services`) is a
   * skipped row with its reason; anything it throws becomes its one failed row.
   */
  run(settings: BenchSettings, services: ServiceStatuses): Promise<BenchRow[]>;
}

const asRows = (rows: BenchRow | BenchRow[]) => (Array.isArray(rows) ? rows : [rows]);

/** The items, by the name `--only` selects them with, in the order they run. */
export const benchItems = {
  agentLoop: {
    id: "1a–1d, 8",
    title: "Agent loop",
    run: async (settings) => benchAgentLoop(settings.agentLoop),
  },
  graphEngine: {
    id: "2a–2c",
    title: "Graph engine",
    run: async (settings) => benchGraphEngine(settings.graphEngine),
  },
  crew: {
    id: "3",
    title: "Crew wall time",
    run: async (settings) => asRows(await benchCrewWallTime(settings.crew)),
  },
  deepSearch: {
    id: "4",
    title: "Deep search",
    run: async (settings) => asRows(await benchDeepSearch(settings.deepSearch)),
  },
  coldStart: {
    id: "5",
    title: "Cold start",
    run: async (settings) => asRows(await benchColdStart(settings.coldStart)),
  },
  checkpointGrowth: {
    id: "6",
    title: "Checkpoint growth",
    run: async (settings) => asRows(await benchCheckpointGrowth(settings.checkpointGrowth)),
  },
  graphScale: {
    id: "7a–7f",
    title: "Graph scale",
    run: async (settings) => benchGraphScale(settings.graphScale),
  },
  graphThreads: {
    id: "7g–7i",
    title: "Long chains and many threads",
    run: async (settings) => benchGraphThreads(settings.graphThreads),
  },
  registry: {
    id: "9a–9b",
    title: "Tool registry file",
    run: async (settings) => benchRegistry(settings.registry),
  },
  checkpointers: {
    id: "10a–10b",
    title: "Checkpoint savers",
    services: ["postgres"],
    run: async (settings, services) =>
      benchCheckpointers(
        settings.checkpointers,
        services.postgres ?? { skipped: "the Postgres server was not checked before the run" },
      ),
  },
  server: {
    id: "11a–11d",
    title: "Server against LangGraph's",
    run: async (settings) => benchServer(settings.server),
  },
} satisfies Record<string, BenchItem>;

/** The name of one item of {@link benchItems}. */
export type BenchItemName = keyof typeof benchItems;

/** What an item threw, as its row keeps it: the class name and the message, redacted. */
function rowError(error: unknown): RowError {
  if (error instanceof Error) return { name: error.name, message: redactSecrets(error.message) };
  return { name: typeof error, message: redactSecrets(String(error)) };
}

function failedRow(item: BenchItem, error: unknown): FailedRow {
  return { id: item.id, title: item.title, verdict: "failed", error: rowError(error) };
}

/** What {@link runAll} reports after each item. */
export interface ItemDone {
  readonly name: string;
  /** The item's own rows (its one failed row if it threw). */
  readonly rows: readonly BenchRow[];
  /** Every row so far, in order. */
  readonly allRows: readonly BenchRow[];
  readonly seconds: number;
  /** Names of the items still to run. */
  readonly remaining: readonly string[];
}

/** Settings of {@link runAll} beyond the sizes. */
export interface RunAllOptions {
  /** Names of the items to run, in the order given (default: every item, in its order). */
  readonly only?: readonly string[];
  /** The suite (default: {@link benchItems}). */
  readonly items?: Readonly<Record<string, BenchItem>>;
  /** Where the servers are (default: where the integration tests find them). */
  readonly services?: ServiceUrls;
  /** Hears about each item as soon as it is done; awaited before the next starts. */
  readonly onItem?: (done: ItemDone) => void | Promise<void>;
}

/**
 * Runs the items (the six of issue #8, the scale items of issues #14 and #19 (7a–7i), the
 * agent scaling (8), the registry (9), the durable savers (10) and the server against
 * LangGraph's (11), or the `only` ones) one after the other in one process, and returns their
 * rows. The servers they need are checked first, so a missing one skips its rows at once, with
 * the reason, in every mode. Each item runs on its own: one that throws leaves one failed row
 * (its error, redacted) and the rest of the run goes on.
 */
export async function runAll(
  settings: BenchSettings,
  { only, items = benchItems, services, onItem }: RunAllOptions = {},
): Promise<BenchRow[]> {
  const names = only ?? Object.keys(items);
  const unknown = names.filter((name) => !(name in items));
  if (unknown.length > 0) {
    throw new RangeError(
      `Unknown item ${unknown.join(", ")}; items: ${Object.keys(items).join(", ")}`,
    );
  }
  const needed = names.flatMap((name) => items[name]!.services ?? []);
  const statuses = await checkServices(needed, services ?? configuredServiceUrls());
  const allRows: BenchRow[] = [];
  for (const [index, name] of names.entries()) {
    const item = items[name]!;
    const started = performance.now();
    let rows: BenchRow[];
    try {
      rows = await item.run(settings, statuses);
    } catch (error) {
      rows = [failedRow(item, error)];
    }
    allRows.push(...rows);
    await onItem?.({
      name,
      rows,
      allRows: [...allRows],
      seconds: (performance.now() - started) / 1000,
      remaining: names.slice(index + 1),
    });
  }
  return allRows;
}
