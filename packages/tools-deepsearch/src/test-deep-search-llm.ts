import type { ChatRequest } from "@framework/core";
import { MockChatModel, type MockChatModelOptions } from "@framework/testing";

/** Which workflow step sent a model request. */
export type DeepSearchStep = "planner" | "writer" | "reflect" | "critique-queries";

const openings: [string, DeepSearchStep][] = [
  ["You are a research planner.", "planner"],
  ["You are a research writer.", "writer"],
  ["You are an editor", "reflect"],
  ["You are a research assistant.", "critique-queries"],
];

/** The step whose system prompt this is, told by its opening. */
export function stepOfSystemPrompt(system: string): DeepSearchStep {
  const found = openings.find(([opening]) => system.startsWith(opening));
  if (!found) throw new Error(`Not a deep-search request: ${system.slice(0, 60)}`);
  return found[1];
}

/** The step a request comes from. */
export function stepOf(request: ChatRequest): DeepSearchStep {
  return stepOfSystemPrompt(request.messages[0]?.content ?? "");
}

/** The user message of a request. */
export function userText(request: ChatRequest): string {
  return request.messages.find((message) => message.role === "user")?.content ?? "";
}

/** What {@link deepSearchLLM} answers. */
export interface DeepSearchScript {
  /** The planner's reply. */
  outline: string;
  /** The critique-queries reply; default two quoted queries. */
  queries?: string;
  /** The reflect reply; default a short critique. */
  critique?: string;
}

/**
 * A MockChatModel answering each deep-search step: the outline, `Text of <title>, draft <n>.`
 * for the writer (n counts drafts per title), the critique and the critique queries.
 */
export function deepSearchLLM(
  script: DeepSearchScript,
  options: MockChatModelOptions = {},
): MockChatModel {
  const drafts = new Map<string, number>();
  return new MockChatModel([], {
    ...options,
    defaultReply: (request) => {
      switch (stepOf(request)) {
        case "planner":
          return script.outline;
        case "writer": {
          const title = /Chapter to write: (.*)/.exec(userText(request))?.[1] ?? "?";
          const draft = (drafts.get(title) ?? 0) + 1;
          drafts.set(title, draft);
          return `Text of ${title}, draft ${draft}.`;
        }
        case "reflect":
          return script.critique ?? "Add figures for the ETF flows.";
        case "critique-queries":
          return script.queries ?? '1. "bitcoin ETF flows March"\n2. "stablecoin rules"';
      }
    },
  });
}
