import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Agent, getToolSpec, ToolArgumentsError } from "@framework/core";
import { createToolRecord } from "@framework/core/internal";
import {
  createCapturingLogger,
  type FakeLLMServer,
  type FakeTavilyServer,
  MockChatModel,
  mockToolCall,
  startFakeLLMServer,
  startFakeTavilyServer,
} from "@framework/testing";
import { createTavilySearch, type WebSearch } from "@framework/tools-websearch";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import {
  configureDeepSearch,
  createDeepSearchTool,
  type DeepSearchToolConfig,
  type DeepSearchToolOptions,
  deepsearch_tool,
} from "./deepsearch-tool.js";
import type { DeepSearchProgressEvent } from "./events/deep-search-event.js";
import * as deepsearchModule from "./index.js";
import { deepSearchLLM, stepOf, stepOfSystemPrompt } from "./test-deep-search-llm.js";

const outline = "1. Market overview\nbitcoin price today\n\n2. Outlook\nbitcoin forecast";
const report =
  "# I. Planning\n1. Market overview\nbitcoin price today\n2. Outlook\nbitcoin forecast\n\n" +
  "# II. Results\n## 1. Market overview \n Text of 1. Market overview, draft 1.\n\n" +
  "## 2. Outlook \n Text of 2. Outlook, draft 1.\n\n" +
  "# III. Sources\n1. https://markets.example.com/crypto/bitcoin-etf-inflows\n" +
  "2. https://research.example.com/onchain/long-term-holders";

let tavily: FakeTavilyServer;
let logger: ReturnType<typeof createCapturingLogger>;
let previous: DeepSearchToolOptions;

beforeEach(async () => {
  logger = createCapturingLogger();
  tavily = await startFakeTavilyServer();
  vi.stubEnv("TAVILY_API_URL", tavily.url);
  vi.stubEnv("TAVILY_API_KEY", tavily.apiKey);
  previous = configureDeepSearch({});
});

afterEach(async () => {
  configureDeepSearch(previous);
  vi.unstubAllEnvs();
  await tavily.close();
});

describe("deepsearch_tool", () => {
  it("is registrable with the spec's arguments and defaults", () => {
    const spec = getToolSpec(deepsearch_tool);
    expect(spec.name).toBe("deepsearch_tool");
    expect(spec.returns).toBe("str: the report");
    const record = createToolRecord(spec, {
      modulePath: "@framework/tools-deepsearch",
      toolType: "module",
      dependencies: [],
    });
    expect(record.docstring).toBe(
      "Write a multi-chapter research report on a query, researched on the web.",
    );
    expect(record.arguments).toEqual({
      query: "string",
      max_chapters: 4,
      max_paragraphs_per_chapter: 5,
      max_critical_queries: 3,
      max_revisions: 1,
    });
  });

  it("runs with the configured model and passes its arguments as the run's limits", async () => {
    const llm = deepSearchLLM({ outline });
    configureDeepSearch({ llm });
    const text = await deepsearch_tool(
      { query: "Bitcoin", max_chapters: 1, max_paragraphs_per_chapter: 2, max_critical_queries: 1 },
      { logger },
    );
    expect(text).toBe(
      "# I. Planning\n1. Market overview\nbitcoin price today\n\n# II. Results\n## 1. Market overview \n Text of 1. Market overview, draft 1.\n\n# III. Sources\n1. https://markets.example.com/crypto/bitcoin-etf-inflows\n2. https://research.example.com/onchain/long-term-holders",
    );
    expect(llm.calls[0]!.messages[0]!.content).toContain("in at most 1 chapters");
    expect(llm.calls[1]!.messages[0]!.content).toContain("Write at most 2 paragraphs");
    expect(logger.infos[0]).toMatch(/^Agent name: planner : /);
  });

  it("hands each step to onEvent as a typed event while it works", async () => {
    const events: DeepSearchProgressEvent[] = [];
    const tool = createDeepSearchTool({
      llm: deepSearchLLM({ outline }),
      onEvent: (event) => events.push(event),
    });
    await tool(
      { query: "Bitcoin", max_chapters: 2, max_revisions: 2, max_critical_queries: 1 },
      { logger },
    );
    const steps = events.map((event) =>
      event.type === "search"
        ? `search ${event.stage}`
        : `${event.type}${"revision" in event ? ` ${event.chapter}.${event.revision}` : ""}`,
    );
    expect(steps).toEqual([
      "planned",
      "chapter-start 1.1",
      "search chapter",
      "chapter-writing 1.1",
      "chapter-written 1.1",
      "critique",
      "critique-queries",
      "search critique",
      "chapter-start 1.2",
      "search chapter",
      "chapter-writing 1.2",
      "chapter-written 1.2",
      "critique",
      "critique-queries",
      "search critique",
      "chapter-start 2.1",
      "search chapter",
      "chapter-writing 2.1",
      "chapter-written 2.1",
      "critique",
      "critique-queries",
      "search critique",
      "chapter-start 2.2",
      "search chapter",
      "chapter-writing 2.2",
      "chapter-written 2.2",
    ]);
  });

  it("writes the report when an agent's model calls it", async () => {
    configureDeepSearch({ llm: deepSearchLLM({ outline }) });
    const agentLLM = new MockChatModel([
      {
        toolCalls: [mockToolCall("deepsearch_tool", { query: "Bitcoin market", max_chapters: 2 })],
      },
      "Here is your report on the bitcoin market.",
    ]);
    const cwd = await mkdtemp(join(tmpdir(), "deepsearch-agent-"));
    try {
      const agent = new Agent({
        description: "You are a financial analyst.",
        llm: agentLLM,
        tools: [deepsearchModule],
        cwd,
        logger,
      });
      const answer = await agent.invoke("Write a report on the bitcoin market");

      expect(answer.content).toBe("Here is your report on the bitcoin market.");
      expect(agentLLM.calls[0]!.tools?.map((tool) => tool.name)).toEqual(["deepsearch_tool"]);
      expect(agentLLM.calls[1]!.messages.at(-1)).toMatchObject({
        role: "tool",
        name: "deepsearch_tool",
        content: report,
      });
      expect(logger.infos).toContain("Chapter title: 2. Outlook");
    } finally {
      await rm(cwd, { recursive: true, force: true });
    }
  });

  it("uses an OpenAIChatModel from the environment, built when it runs", async () => {
    const llmServer: FakeLLMServer = await startFakeLLMServer({
      apiKey: "sk-test-deepsearch-0123456789",
      defaultReply: (body) => {
        const system = body.messages[0]?.content;
        const step = stepOfSystemPrompt(typeof system === "string" ? system : "");
        return step === "planner"
          ? "1. Overview\nbitcoin price today"
          : "Bitcoin trades near $97,200.";
      },
    });
    try {
      vi.stubEnv("LLM_API_URL", llmServer.baseURL);
      vi.stubEnv("LLM_API_KEY", "sk-test-deepsearch-0123456789");
      vi.stubEnv("LLM_MODEL", "test-model");
      const text = await deepsearch_tool({ query: "Bitcoin", max_chapters: 1 }, { logger });

      expect(text).toBe(
        "# I. Planning\n1. Overview\nbitcoin price today\n\n# II. Results\n## 1. Overview \n Bitcoin trades near $97,200.\n\n# III. Sources\n1. https://markets.example.com/crypto/bitcoin-etf-inflows\n2. https://research.example.com/onchain/long-term-holders",
      );
      expect(llmServer.chatRequests.map((body) => body.model)).toEqual([
        "test-model",
        "test-model",
      ]);
      expect(tavily.requests).toHaveLength(1);
    } finally {
      await llmServer.close();
    }
  });

  describe("returns failures as text and logs them, never throwing", () => {
    it("a missing TAVILY_API_KEY", async () => {
      vi.stubEnv("TAVILY_API_KEY", undefined);
      configureDeepSearch({ llm: deepSearchLLM({ outline }) });
      const text = await deepsearch_tool({ query: "Bitcoin" }, { logger });

      expect(text).toBe(
        "Deep search failed: TAVILY_API_KEY is not set. Web search needs a Tavily API key: add TAVILY_API_KEY to the environment or the .env file (keys: https://app.tavily.com).",
      );
      expect(logger.entries.filter((entry) => entry.level === "warn")).toEqual([
        { level: "warn", message: `deepsearch_tool failed: ${text}` },
      ]);
      expect(tavily.requests).toHaveLength(0);
    });

    it("a missing LLM_API_KEY", async () => {
      vi.stubEnv("LLM_API_KEY", undefined);
      const text = await deepsearch_tool({ query: "Bitcoin" }, { logger });

      expect(text).toBe(
        "Deep search failed: LLM_API_KEY is not set. Set the LLM_API_KEY environment variable (for example in a .env file) to your LLM provider's API key, or pass apiKey to new OpenAIChatModel({ apiKey }).",
      );
      expect(tavily.requests).toHaveLength(0);
    });

    it("a cancelled run", async () => {
      const controller = new AbortController();
      const llm = new MockChatModel([
        () => {
          controller.abort();
          return outline;
        },
      ]);
      configureDeepSearch({ llm });
      const text = await deepsearch_tool(
        { query: "Bitcoin" },
        { logger, signal: controller.signal },
      );
      expect(text).toBe("Deep search was cancelled.");
    });

    it("a model reply without chapters", async () => {
      configureDeepSearch({ llm: new MockChatModel(["No outline today."]) });
      const text = await deepsearch_tool({ query: "Bitcoin" }, { logger });
      expect(text).toBe(
        'Deep search failed: The planner\'s outline held no numbered chapter (a block beginning with "1. "), so there is nothing to write. The model replied: No outline today.',
      );
    });
  });

  it("refuses arguments out of bounds before running", async () => {
    const llm = deepSearchLLM({ outline });
    configureDeepSearch({ llm });
    await expect(deepsearch_tool({ query: "Bitcoin", max_chapters: 0 })).rejects.toSatisfy(
      (error) => ToolArgumentsError.isInstance(error),
    );
    await expect(deepsearch_tool({ query: " " })).rejects.toSatisfy((error) =>
      ToolArgumentsError.isInstance(error),
    );
    expect(llm.calls).toHaveLength(0);
  });

  it("never reads a key at import", async () => {
    vi.stubEnv("TAVILY_API_KEY", undefined);
    vi.stubEnv("LLM_API_KEY", undefined);
    vi.resetModules();
    const fresh = await import("./index.js");
    expect(getToolSpec(fresh.deepsearch_tool).name).toBe("deepsearch_tool");
  });
});

describe("createDeepSearchTool", () => {
  it("runs with its own model and search, whatever configureDeepSearch says", async () => {
    const searched: string[] = [];
    const search: WebSearch = async (query) => {
      searched.push(query);
      return { results: [{ title: "t", url: "https://x.example.com", content: "c", score: 1 }] };
    };
    const own = deepSearchLLM({ outline });
    const other = new MockChatModel();
    configureDeepSearch({ llm: other });
    const tool = createDeepSearchTool({ llm: own, search, searchConcurrency: 1 });

    await expect(tool({ query: "Bitcoin", max_chapters: 1 }, { logger })).resolves.toContain(
      "## 1. Market overview",
    );
    expect(getToolSpec(tool).name).toBe("deepsearch_tool");
    expect(own.calls.map(stepOf)).toEqual(["planner", "writer"]);
    expect(other.calls).toHaveLength(0);
    expect(searched).toEqual(["bitcoin price today"]);
    expect(tavily.requests).toHaveLength(0);
  });

  it("gives each tool its own search service and key, with no environment variable set", async () => {
    vi.stubEnv("TAVILY_API_URL", undefined);
    vi.stubEnv("TAVILY_API_KEY", undefined);
    const other = await startFakeTavilyServer({ apiKey: "tvly-tenant-b-key-58e2c1" });
    try {
      const forTavily = createDeepSearchTool({
        llm: deepSearchLLM({ outline }),
        search: createTavilySearch({ baseURL: tavily.url, apiKey: tavily.apiKey }),
      });
      const forOther = createDeepSearchTool({
        llm: deepSearchLLM({ outline: "1. Ether\nether staking yield" }),
        search: createTavilySearch({ baseURL: other.url, apiKey: other.apiKey }),
      });
      const [first, second] = await Promise.all([
        forTavily({ query: "Bitcoin", max_chapters: 1 }, { logger }),
        forOther({ query: "Ether", max_chapters: 1 }, { logger }),
      ]);
      expect(first).toContain("## 1. Market overview");
      expect(second).toContain("## 1. Ether");
      const queries = (server: FakeTavilyServer) =>
        server.requests.map((request) => (request.json as { query: string }).query);
      expect(queries(tavily)).toEqual(["bitcoin price today"]);
      expect(queries(other)).toEqual(["ether staking yield"]);
    } finally {
      await other.close();
    }
  });

  it("keeps DeepSearchToolConfig as the old name of its options", () => {
    const options: DeepSearchToolConfig = { searchConcurrency: 2 };
    const same: DeepSearchToolOptions = options;
    expect(getToolSpec(createDeepSearchTool(same)).name).toBe("deepsearch_tool");
  });
});
