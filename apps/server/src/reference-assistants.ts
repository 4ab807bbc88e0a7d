import { createTradingCrew } from "@framework/app-crew";
import { createFinanceAgent } from "@framework/app-finance";
import { createResearchAgent } from "@framework/app-research";
import type { Agent, ChatModel, Logger } from "@framework/core";
import type { ServableGraph } from "@framework/server";

/** The names the reference agents are served under, in the order they are listed. */
export const referenceAssistantNames = ["research", "finance", "advisory"] as const;

/** Options of {@link referenceAssistants}. */
export interface ReferenceAssistantsOptions {
  /**
   * Runs the advisory crew's tools that ask first (web search, charts) without asking. Only for
   * the offline demo, where every call goes to a local fake. Otherwise each such call pauses
   * its run with a tool-approval interrupt, which a client answers with a run whose `command`
   * is `{ resume: true }` (or `false` to decline it).
   */
  approveAll?: boolean;
  /**
   * The logger of an agent (`research`, `finance`), of a crew node (`market`, `crypto`,
   * `recommender`) or of the crew (`crew`).
   */
  loggerFor?: (scope: string) => Logger;
}

/** The three reference agents, as `createServer` takes them. */
export interface ReferenceAssistants {
  agents: { research: Agent; finance: Agent };
  graphs: { advisory: ServableGraph };
}

/**
 * Builds the reference agents with the same builders their command-line apps use: the paper
 * researcher, the financial analyst (with its deep-search report writer as a tool), and the
 * multi-market advisory crew, a graph whose two analysts run in parallel before the portfolio
 * manager.
 */
export async function referenceAssistants(
  llm: ChatModel,
  options: ReferenceAssistantsOptions = {},
): Promise<ReferenceAssistants> {
  const { loggerFor } = options;
  const withLogger = (scope: string) => (loggerFor ? { logger: loggerFor(scope) } : {});
  // One after another: each builder starts the shared tool registry file afresh before it
  // records its tools, and two at once would race on it.
  const research = await createResearchAgent(llm, withLogger("research"));
  const finance = await createFinanceAgent(llm, withLogger("finance"));
  const { crew } = await createTradingCrew({
    llm,
    ...(loggerFor ? { loggerFor } : {}),
    ...(options.approveAll ? { approveToolCall: () => true } : {}),
  });
  return { agents: { research, finance }, graphs: { advisory: crew } };
}
