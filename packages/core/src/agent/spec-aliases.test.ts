import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { createCapturingLogger, MockChatModel } from "@framework/testing";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import * as weatherTools from "../../test/fixtures/weather-tools.js";
import { temporaryDirectory } from "../registry/test-temporary-directory.js";
import { Agent } from "./agent.js";

// The spec names Agent's reset option `isResetTools` and its registry `toolsManager`; the
// TypeScript names are `resetTools` and `toolRegistry`. Both stay, silently, as graph's
// AgentNode keeps them: each alias is checked here, so removing one, or making it warn, fails a
// test.

let dir: string;
let cleanup: () => Promise<void>;
beforeEach(async () => {
  ({ dir, cleanup } = await temporaryDirectory());
});
afterEach(async () => {
  vi.restoreAllMocks();
  await cleanup();
});

const warnings = (logger: ReturnType<typeof createCapturingLogger>) =>
  logger.entries.filter((entry) => entry.level === "warn");

describe("the spec's names on Agent", () => {
  it.each(["resetTools", "isResetTools"] as const)(
    "keeps other agents' records unless %s is set, warning nothing",
    async (option) => {
      const emitWarning = vi.spyOn(process, "emitWarning");
      const logger = createCapturingLogger();
      const base = { description: "d", llm: new MockChatModel([]), cwd: dir, logger };
      await Agent.create({ ...base, tools: [weatherTools.add] });
      await Agent.create({ ...base, tools: [weatherTools.get_weather] });
      const path = join(dir, "templates/tools.json");
      expect(Object.keys(JSON.parse(await readFile(path, "utf8"))).sort()).toEqual([
        "add",
        "get_weather",
      ]);
      await Agent.create({ ...base, tools: [weatherTools.get_weather], [option]: true });
      expect(Object.keys(JSON.parse(await readFile(path, "utf8")))).toEqual(["get_weather"]);
      expect(warnings(logger)).toEqual([]);
      expect(emitWarning).not.toHaveBeenCalled();
    },
  );

  it("toolsManager is the agent's toolRegistry, and registers runtime tools there", async () => {
    const emitWarning = vi.spyOn(process, "emitWarning");
    const agent = new Agent({
      description: "d",
      llm: new MockChatModel([]),
      toolsPath: false,
      cwd: dir,
    });
    expect(agent.toolsManager).toBe(agent.toolRegistry);
    agent.toolsManager.registerFunctionTool(weatherTools.add);
    expect(agent.toolRegistry.find("add")?.record.is_runtime).toBe(true);
    expect(emitWarning).not.toHaveBeenCalled();
  });
});
