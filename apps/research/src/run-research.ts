import { type AppRun, invokeOnThread, withAppThread } from "@framework/cli-kit";
import { type McpToolSet, mcpTools, parseMcpCommand } from "@framework/tools-mcp";
import { createResearchAgent } from "./create-research-agent.js";
import { papersFound, renderPapers } from "./papers-found.js";
import { researchQuery } from "./research-prompt.js";

/** What the command line asks of one research run. */
export interface ResearchRequest {
  topic: string;
  maxResults: number;
  /** Command lines of MCP servers whose tools the agent gets too (`--mcp`). */
  mcpServers?: readonly string[];
  /** The conversation thread to continue (`--thread`); a new thread when absent. */
  threadId?: string;
  /** The checkpoint database (`--db`); see `checkpointDbPath` for the default. */
  db?: string;
}

/**
 * Asks the paper-research agent (`@framework/tools-papers`, plus the tools of any MCP servers
 * asked for) about a topic and prints its answer, then the papers its searches returned (ids,
 * titles, links). The question is the next turn of the conversation on a thread of the app's
 * checkpoint database, so `--thread` continues an earlier run's conversation.
 */
export async function runResearch(run: AppRun, request: ResearchRequest): Promise<void> {
  const servers = await connectMcpServers(run, request.mcpServers ?? []);
  try {
    await research(run, request, servers);
  } finally {
    await Promise.all(servers.map((server) => server.close()));
  }
}

/** Starts each MCP server; if one fails, those already started are stopped. */
async function connectMcpServers(run: AppRun, commands: readonly string[]): Promise<McpToolSet[]> {
  const servers: McpToolSet[] = [];
  try {
    for (const command of commands) {
      servers.push(
        await mcpTools({
          ...parseMcpCommand(command),
          logger: run.progress.logger("mcp"),
          signal: run.signal,
        }),
      );
    }
  } catch (error) {
    await Promise.all(servers.map((server) => server.close()));
    throw error;
  }
  return servers;
}

async function research(
  run: AppRun,
  request: ResearchRequest,
  servers: readonly McpToolSet[],
): Promise<void> {
  const agent = await createResearchAgent(run.llm, {
    tools: servers,
    logger: run.progress.logger("research"),
  });
  const result = await withAppThread(run, { app: "research", ...request }, (thread) =>
    invokeOnThread(agent, researchQuery(request.topic, request.maxResults), {
      thread,
      signal: run.signal,
      onEvent: (event) => run.progress.agentEvent("research", event),
    }),
  );
  run.print(
    `## Answer\n\n${result.content.trim()}\n\n## Papers found\n\n${renderPapers(papersFound(result.toolCalls))}\n`,
  );
}
