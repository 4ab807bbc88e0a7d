import { unstructuredNote } from "@framework/cli-kit";
import type { Trading } from "./trading-state.js";

function section(title: string, body: string | undefined): string {
  return `## ${title}\n\n${body?.trim() || "(not written)"}\n`;
}

/**
 * The crew's answer for a reader: both insights, then the final recommendation, said to be
 * unstructured (and why) when the model did not answer with the recommendation's fields.
 */
export function renderCrewReport(state: Trading): string {
  const recommendation =
    state.recommendation === null
      ? `${unstructuredNote("recommendation", state.recommendation_issues ?? [])}\n\n${state.final_recommendation ?? ""}`
      : state.final_recommendation;
  return [
    section("Equity insight (MarketDataProvider)", state.equity_insight),
    section("Crypto insight (CryptoTracker)", state.crypto_insight),
    section("Final recommendation (RecommenderAgent)", recommendation),
  ].join("\n");
}

/**
 * What `--json` prints: the crew's final state as the specification defines it (`messages`,
 * `equity_insight`, `crypto_insight`, `final_recommendation`), plus the typed
 * `recommendation` (`null` when the model answered in prose) and `recommendation_issues`
 * (why; empty otherwise). The recommender's conversation stays out: it is the thread's memory,
 * not the answer.
 */
export interface CrewFinalState {
  messages: Trading["messages"];
  equity_insight: string | null;
  crypto_insight: string | null;
  final_recommendation: string | null;
  recommendation: NonNullable<Trading["recommendation"]> | null;
  recommendation_issues: NonNullable<Trading["recommendation_issues"]>;
}

/** The {@link CrewFinalState} of a finished run's state. */
export function crewFinalState(state: Trading): CrewFinalState {
  return {
    messages: state.messages,
    equity_insight: state.equity_insight ?? null,
    crypto_insight: state.crypto_insight ?? null,
    final_recommendation: state.final_recommendation ?? null,
    recommendation: state.recommendation ?? null,
    recommendation_issues: state.recommendation_issues ?? [],
  };
}
