import { type AnyPrimaryFunction, getToolSpec } from "../tool/primary-function.js";

/**
 * Marks a {@link LiveToolSource}. A global symbol, so a source made with another copy of this
 * package is recognised too.
 */
export const liveToolSourceMarker: unique symbol = Symbol.for("framework.live-tool-source");

/**
 * A set of tools that changes while the agent lives, such as an MCP server's (whose server
 * may add or remove tools at any time). An agent given one reads `currentTools()` again
 * before every `invoke`, so each run offers the tools as they are then.
 *
 * Its tools are recorded in memory (`toolRegistry.records()`) but not written to the registry
 * file: other processes could not call them.
 */
export interface LiveToolSource {
  readonly [liveToolSourceMarker]: true;
  /** Recorded as the tools' `module_path`, e.g. `"mcp:github"`. */
  readonly modulePath: string;
  /** The tools as they are now. */
  currentTools(): readonly AnyPrimaryFunction[];
}

/** True when `value` is a {@link LiveToolSource} (from any copy of this package). */
export function isLiveToolSource(value: unknown): value is LiveToolSource {
  return (
    value != null &&
    (typeof value === "object" || typeof value === "function") &&
    (value as Partial<LiveToolSource>)[liveToolSourceMarker] === true
  );
}

/** How a live source's tools changed since they were last read. */
export interface LiveToolChanges {
  /** Tools that are new, or whose definition was replaced (same name, another tool). */
  added: AnyPrimaryFunction[];
  /** Names no longer offered. */
  removed: string[];
  /** The tools now offered, by name: what to compare the next read against. */
  current: Map<string, AnyPrimaryFunction>;
}

/**
 * Compares a live source's tools with what was read last time. Tools are compared by
 * identity: a source replaces a tool's function when its definition changes.
 */
export function diffLiveTools(
  previous: ReadonlyMap<string, AnyPrimaryFunction>,
  tools: readonly AnyPrimaryFunction[],
): LiveToolChanges {
  const current = new Map(tools.map((tool) => [getToolSpec(tool).name, tool] as const));
  const added = [...current].filter(([name, tool]) => previous.get(name) !== tool);
  const removed = [...previous.keys()].filter((name) => !current.has(name));
  return { added: added.map(([, tool]) => tool), removed, current };
}
