import { createCapturingLogger } from "@framework/testing";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { ToolCallRefusedError } from "../error/tool-call-refused-error.js";
import { ToolNotFoundError } from "../error/tool-not-found-error.js";
import { ToolTimeoutError } from "../error/tool-timeout-error.js";
import { executeTool } from "./execute-tool.js";
import { getToolSpec, primaryFunction } from "./primary-function.js";
import { createToolRecord } from "./tool-record.js";

const slow = primaryFunction(
  {
    description: "Never answers.",
    parameters: z.object({ label: z.string().default("x") }),
    returns: "str",
    timeoutMs: 20,
  },
  async function slow() {
    return new Promise<string>(() => {});
  },
);
const spec = getToolSpec(slow);
const tool = {
  spec,
  record: createToolRecord(spec, { modulePath: "pkg", toolType: "module", dependencies: [] }),
};
const settings = { logger: createCapturingLogger(), timeoutMs: 60_000, toolNames: () => ["slow"] };
const context = (signal = new AbortController().signal) => ({
  toolCallId: "c1",
  signal,
  logger: settings.logger,
});

describe("executeTool", () => {
  it("answers a call to an unknown tool with the names it may call", async () => {
    const execution = await executeTool(
      undefined,
      { tool_name: "nope", arguments: {} },
      context(),
      settings,
    );
    expect(execution.ok).toBe(false);
    expect(!execution.ok && ToolNotFoundError.isInstance(execution.error)).toBe(true);
    expect(!execution.ok && execution.error.message).toContain("slow");
  });

  it("refuses a call naming another module than the tool's record", async () => {
    const execution = await executeTool(
      tool,
      { tool_name: "slow", arguments: {}, module_path: "elsewhere" },
      context(),
      settings,
    );
    expect(!execution.ok && ToolCallRefusedError.isInstance(execution.error)).toBe(true);
  });

  it("stops a tool at its own time limit, which wins over the default", async () => {
    const execution = await executeTool(
      tool,
      { tool_name: "slow", arguments: {} },
      context(),
      settings,
    );
    expect(!execution.ok && ToolTimeoutError.isInstance(execution.error)).toBe(true);
  });

  it("settles at once when the caller aborts, even if the tool ignores its signal", async () => {
    const controller = new AbortController();
    const running = executeTool(
      tool,
      { tool_name: "slow", arguments: {} },
      context(controller.signal),
      {
        ...settings,
      },
    );
    controller.abort(new Error("stop"));
    const execution = await running;
    expect(!execution.ok && execution.error.name).toBe("AbortedError");
  });
});
