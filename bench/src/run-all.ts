import { benchAgentLoop } from "./agent-loop.js";
import { benchCheckpointGrowth } from "./checkpoint-growth.js";
import { benchColdStart } from "./cold-start.js";
import { benchCrewWallTime } from "./crew-wall-time.js";
import { benchDeepSearch } from "./deep-search.js";
import { benchGraphEngine } from "./graph-engine.js";
import { benchGraphScale } from "./graph-scale.js";
import { benchRegistry } from "./registry.js";
import type { BenchRow } from "./report.js";
import type { BenchSettings } from "./settings.js";

/**
 * Runs the six items of issue #8, the scale items of issue #14 (7a–7e) and the registry items
 * of issue #19 (9a, 9b) in one process,
 * in that order, and returns one row per measured item. `onRows` hears about each item as soon as it is done.
 */
export async function runAll(
  settings: BenchSettings,
  onRows: (rows: readonly BenchRow[], seconds: number) => void = () => {},
): Promise<BenchRow[]> {
  const items: (() => Promise<BenchRow | BenchRow[]>)[] = [
    () => benchAgentLoop(settings.agentLoop),
    () => benchGraphEngine(settings.graphEngine),
    () => benchCrewWallTime(settings.crew),
    () => benchDeepSearch(settings.deepSearch),
    () => benchColdStart(settings.coldStart),
    () => benchCheckpointGrowth(settings.checkpointGrowth),
    () => benchGraphScale(settings.graphScale),
    () => benchRegistry(settings.registry),
  ];
  const rows: BenchRow[] = [];
  for (const item of items) {
    const started = performance.now();
    const result = await item();
    const itemRows = Array.isArray(result) ? result : [result];
    rows.push(...itemRows);
    onRows(itemRows, (performance.now() - started) / 1000);
  }
  return rows;
}
