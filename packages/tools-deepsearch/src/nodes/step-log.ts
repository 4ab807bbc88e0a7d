import type { DeepSearchNode } from "./node-dependencies.js";

/**
 * `node`, logging the spec's step line `Agent name: <name> : <update>` (the update as JSON)
 * as soon as it returns. Logging here rather than from the stream keeps the line before
 * anything the next node logs.
 */
export function withStepLog(name: string, node: DeepSearchNode): DeepSearchNode {
  return async (state, context) => {
    const update = await node(state, context);
    context.logger.info(`Agent name: ${name} : ${JSON.stringify(update)}`);
    return update;
  };
}
