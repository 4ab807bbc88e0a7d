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
import type { BenchRow } from "./report.js";
import type { BenchSettings } from "./settings.js";

/** The items, by the name `--only` selects them with, in the order they run. */
export const benchItems = {
  agentLoop: (settings: BenchSettings) => benchAgentLoop(settings.agentLoop),
  graphEngine: (settings: BenchSettings) => benchGraphEngine(settings.graphEngine),
  crew: (settings: BenchSettings) => benchCrewWallTime(settings.crew),
  deepSearch: (settings: BenchSettings) => benchDeepSearch(settings.deepSearch),
  coldStart: (settings: BenchSettings) => benchColdStart(settings.coldStart),
  checkpointGrowth: (settings: BenchSettings) => benchCheckpointGrowth(settings.checkpointGrowth),
  graphScale: (settings: BenchSettings) => benchGraphScale(settings.graphScale),
  graphThreads: (settings: BenchSettings) => benchGraphThreads(settings.graphThreads),
  registry: (settings: BenchSettings) => benchRegistry(settings.registry),
  checkpointers: (settings: BenchSettings) => benchCheckpointers(settings.checkpointers),
} satisfies Record<string, (settings: BenchSettings) => Promise<BenchRow | BenchRow[]>>;

/** The name of one item of {@link benchItems}. */
export type BenchItem = keyof typeof benchItems;

/**
 * Runs the six items of issue #8, the scale items of issues #14 and #19 (7a–7i), the agent
 * scaling (8), the registry (9) and the durable savers (10) in one process, in that order
 * (or only the `only` ones), and returns one row per measured case. `onRows` hears about
 * each item as soon as it is done.
 */
export async function runAll(
  settings: BenchSettings,
  onRows: (rows: readonly BenchRow[], seconds: number) => void = () => {},
  only: readonly BenchItem[] = Object.keys(benchItems) as BenchItem[],
): Promise<BenchRow[]> {
  const rows: BenchRow[] = [];
  for (const name of only) {
    const started = performance.now();
    const result = await benchItems[name](settings);
    const itemRows = Array.isArray(result) ? result : [result];
    rows.push(...itemRows);
    onRows(itemRows, (performance.now() - started) / 1000);
  }
  return rows;
}
