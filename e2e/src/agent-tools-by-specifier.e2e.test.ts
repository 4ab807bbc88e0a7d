import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Agent } from "@framework/core";
import {
  createCapturingLogger,
  type FakeServer,
  MockChatModel,
  mockToolCall,
  startFakeArxivServer,
} from "@framework/testing";
import { afterEach, beforeEach, describe, expect, it } from "vitest";

// What a user's app does: name tool packages by specifier, resolved from its own directory
// (here this workspace package, which depends on both), and let the model call them.
let arxiv: FakeServer;
let dir: string;
const savedEnv = { ...process.env };
beforeEach(async () => {
  arxiv = await startFakeArxivServer();
  process.env.ARXIV_API_URL = arxiv.url;
  dir = await mkdtemp(join(tmpdir(), "e2e-specifier-"));
});
afterEach(async () => {
  process.env = { ...savedEnv };
  await arxiv.close();
  await rm(dir, { recursive: true, force: true });
});

describe("an Agent registering tool packages by specifier", () => {
  it("calls paper_research and get_current_time in one reply and answers from their results", async () => {
    const llm = new MockChatModel([
      {
        toolCalls: [
          mockToolCall("paper_research", { topic: "tool use", max_results: 2 }),
          mockToolCall("get_current_time"),
        ],
      },
      (request) => {
        const results = request.messages.filter((m) => m.role === "tool").map((m) => m.content);
        return `Found papers as of ${results[1]}:\n${results[0]}`;
      },
    ]);
    const logger = createCapturingLogger();
    const agent = await Agent.create({
      description: "You are an academic research assistant.",
      llm,
      tools: ["@framework/tools-papers", "@framework/tools-time"],
      toolsPath: join(dir, "tools.json"),
      resetTools: true,
      logger,
    });

    const records = agent.toolRegistry.records();
    expect(records.map((r) => [r.tool_name, r.module_path])).toEqual([
      ["paper_research", "@framework/tools-papers"],
      ["get_current_time", "@framework/tools-time"],
    ]);
    expect(records[0]?.arguments).toEqual({ topic: "string", max_results: 5 });
    expect(records[0]?.dependencies).toEqual(expect.arrayContaining(["ky", "fast-xml-parser"]));

    const answer = await agent.invoke("Recent papers on tool use, and what time is it?");
    expect(answer.toolCalls.map((c) => [c.toolName, c.ok])).toEqual([
      ["paper_research", true],
      ["get_current_time", true],
    ]);
    expect(arxiv.requests).toHaveLength(1);
    expect(arxiv.requests[0]?.query.max_results).toBe("100");
    const papers = answer.toolCalls[0]?.result as { total_papers: number; paper_ids: string[] };
    expect(papers.total_papers).toBe(2);
    expect(answer.content).toMatch(/^Found papers as of \d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}:/);
    for (const id of papers.paper_ids) expect(answer.content).toContain(id);
    expect(logger.infos).toContain("Completed registration for module @framework/tools-papers");
  });
});
