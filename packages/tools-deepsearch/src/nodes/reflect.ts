import { reporterOf } from "../events/deep-search-event.js";
import { MAX_CRITIQUE_WORDS, reflectMessages } from "../prompts/reflect-prompt.js";
import { limitWords } from "../text/limit-words.js";
import type { DeepSearchNode, NodeDependencies } from "./node-dependencies.js";

/**
 * The `reflect` node: the model critiques `draft` in under 200 words and sets `critique`. A
 * longer reply is cut at the limit, which keeps the spec's bound whatever the model does.
 */
export function createReflectNode({ llm }: NodeDependencies): DeepSearchNode {
  return async (state, context) => {
    const response = await llm.generate({
      messages: reflectMessages(state.task, state.draft),
      signal: context.signal,
    });
    const critique = limitWords((response.message.content ?? "").trim(), MAX_CRITIQUE_WORDS);
    reporterOf(context.config)({ type: "critique", critique });
    return { critique };
  };
}
