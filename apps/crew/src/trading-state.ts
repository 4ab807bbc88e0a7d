import {
  agentConversations,
  appendReducer,
  defineState,
  reducer,
  type StateOf,
  type UpdateOf,
} from "@framework/graph";
import { z } from "zod";
import { Recommendation } from "./recommendation.js";

/** An entry of the crew's `messages`: who wrote it, and what. */
export const CrewMessage = z.object({ role: z.string(), content: z.string() });

/** Why the model's recommendation did not match its schema, as `OutputValidationError` says. */
export const RecommendationIssue = z.object({ path: z.string(), message: z.string() });

/**
 * The crew's shared state, as the specification's `TradingState`: `messages` is append-only
 * (the reducer returns the existing list plus the new entry), each insight is written by one
 * node, and `final_recommendation` by the recommender once both insights exist.
 * `recommendation` is the recommender's typed answer, of which `final_recommendation` is the
 * text; it is `null` when the model's answer did not match the schema even after the retry,
 * `final_recommendation` then being the model's own text and `recommendation_issues` saying
 * why (empty otherwise). `conversations` holds the recommender's conversation, so a thread
 * continued with `--thread` is answered knowing the earlier questions and recommendations.
 */
export const TradingState = defineState({
  messages: reducer(z.array(CrewMessage), appendReducer, () => []),
  equity_insight: z.string().optional(),
  crypto_insight: z.string().optional(),
  final_recommendation: z.string().optional(),
  recommendation: Recommendation.nullable().optional(),
  recommendation_issues: z.array(RecommendationIssue).optional(),
  conversations: agentConversations(),
});

/** The crew's state values. */
export type Trading = StateOf<typeof TradingState>;

/** What a crew node returns. */
export type TradingUpdate = UpdateOf<typeof TradingState>;
