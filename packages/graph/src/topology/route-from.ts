import type { GraphConfig } from "../config/graph-config.js";
import { NodeExecutionError } from "../error/node-execution-error.js";
import type { NodeRef } from "../node/edge-chain.js";
import { END_NAME } from "../node/endpoints.js";
import { deepFreeze } from "../state/deep-freeze.js";
import type { StateRecord } from "../state/state-engine.js";
import type { GraphTopology } from "./graph-topology.js";
import type { RouteResult } from "./router.js";

/** What the routers of an edge are given besides the state. */
export interface RouteContext {
  readonly signal: AbortSignal;
  readonly config: GraphConfig;
}

function asList(result: RouteResult): readonly NodeRef[] {
  return Array.isArray(result) ? result : [result as NodeRef];
}

/**
 * The nodes the edges from `source` lead to (END left out): its static targets, then what
 * each router returns for the state `state()` builds, called only when a router needs it.
 *
 * @throws NodeExecutionError (phase `router`) when a router throws, GraphValidationError
 *   when it returns a node that is not a possible target.
 */
export async function routeFrom(
  topology: GraphTopology,
  source: string,
  state: () => StateRecord,
  context: RouteContext,
): Promise<string[]> {
  const targets = [...topology.staticTargets(source)];
  for (const branch of topology.branches(source)) {
    let result: RouteResult;
    try {
      result = await branch.router(deepFreeze(state()) as never, { source, ...context });
    } catch (cause) {
      throw new NodeExecutionError({ node: source, phase: "router", cause });
    }
    for (const ref of asList(result)) targets.push(topology.resolveRoute(branch, ref));
  }
  return targets.filter((target) => target !== END_NAME);
}
