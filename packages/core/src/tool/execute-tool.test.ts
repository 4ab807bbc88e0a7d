import { createCapturingLogger } from "@framework/testing";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import * as weatherTools from "../../test/fixtures/weather-tools.js";
import { AbortedError } from "../error/aborted-error.js";
import { ToolArgumentsError } from "../error/tool-arguments-error.js";
import { ToolCallRefusedError } from "../error/tool-call-refused-error.js";
import { ToolExecutionError } from "../error/tool-execution-error.js";
import { ToolNotFoundError } from "../error/tool-not-found-error.js";
import { ToolTimeoutError } from "../error/tool-timeout-error.js";
import { silentLogger } from "../log/logger.js";
import { registerSecret } from "../log/redact.js";
import {
  type ExecutableTool,
  type ExecuteToolOptions,
  executeTool,
  type ToolCatalogue,
} from "./execute-tool.js";
import { type AnyPrimaryFunction, getToolSpec, primaryFunction } from "./primary-function.js";
import type { ToolCall } from "./tool-call.js";
import { createToolRecord, RUNTIME_MODULE_PATH, type ToolType } from "./tool-record.js";

/** A catalogue of `tools`, each recorded with the given type (module tools from "weather"). */
function catalogue(...tools: [AnyPrimaryFunction, ToolType][]): ToolCatalogue {
  const byName = new Map<string, ExecutableTool>();
  for (const [tool, toolType] of tools) {
    const spec = getToolSpec(tool);
    const modulePath = toolType === "function" ? RUNTIME_MODULE_PATH : "weather";
    byName.set(spec.name, {
      spec,
      record: createToolRecord(spec, { modulePath, toolType, dependencies: [] }),
    });
  }
  return { find: (name) => byName.get(name), toolNames: () => [...byName.keys()] };
}

const weather = catalogue([weatherTools.get_weather, "module"], [weatherTools.add, "module"]);

function options(overrides: Partial<ExecuteToolOptions> = {}): ExecuteToolOptions {
  return {
    tools: weather,
    context: { signal: new AbortController().signal, logger: silentLogger },
    timeoutMs: 60_000,
    logger: silentLogger,
    ...overrides,
  };
}

/** A tool that never settles and never looks at its signal; it reports the signal it got. */
function deafTool(seen: AbortSignal[], timeoutMs?: number) {
  return primaryFunction(
    {
      name: "deaf",
      description: "Never answers.",
      parameters: z.object({}),
      returns: "str",
      ...(timeoutMs === undefined ? {} : { timeoutMs }),
    },
    (_args, context) => {
      if (context?.signal) seen.push(context.signal);
      return new Promise<string>(() => {});
    },
  );
}

describe("executeTool", () => {
  it("validates arguments, applies defaults, runs the tool and logs its completion", async () => {
    const logger = createCapturingLogger();
    const double = primaryFunction(
      { name: "double", description: "d", parameters: z.object({ n: z.number() }), returns: "n" },
      ({ n }) => n * 2,
    );
    const tools = catalogue([weatherTools.get_weather, "module"], [double, "function"]);
    const call = { tool_name: "get_weather", arguments: '{"city":"Hanoi"}' };
    await expect(executeTool(call, options({ tools, logger }))).resolves.toEqual({
      ok: true,
      toolName: "get_weather",
      arguments: { city: "Hanoi", unit: "celsius" },
      result: "Hanoi: 21 degrees celsius",
    });
    await executeTool({ tool_name: "double", arguments: { n: 4 } }, options({ tools, logger }));
    expect(logger.infos).toEqual([
      'Completed executing module tool get_weather({"city":"Hanoi","unit":"celsius"})',
      'Completed executing function tool double({"n":4})',
    ]);
  });

  it.each([
    ["an unknown tool", { tool_name: "rm_rf", arguments: {} }, ToolNotFoundError],
    ["invalid arguments", { tool_name: "add", arguments: { a: "one", b: 2 } }, ToolArgumentsError],
    [
      "a plain-string argument",
      { tool_name: "get_weather", arguments: "Hanoi" },
      ToolArgumentsError,
    ],
  ])("returns %s as a failure instead of throwing", async (_, call, errorClass) => {
    const execution = await executeTool(call, options());
    expect(execution.ok).toBe(false);
    expect(!execution.ok && errorClass.isInstance(execution.error)).toBe(true);
  });

  it("names the catalogue's tools when the call names another", async () => {
    const execution = await executeTool({ tool_name: "rm_rf", arguments: {} }, options());
    expect(!execution.ok && execution.error.message).toBe(
      'Unknown tool "rm_rf". Available tools: get_weather, add.',
    );
  });

  it("returns a throwing tool's error as a failure, its message redacted", async () => {
    const key = ["sk", "thrown", "by", "tool", "9f8e7d"].join("-");
    registerSecret(key);
    const leaky = primaryFunction(
      { name: "leaky", description: "d", parameters: z.object({}), returns: "x" },
      () => {
        throw new Error(`upstream rejected ${key}`);
      },
    );
    const execution = await executeTool(
      { tool_name: "leaky", arguments: {} },
      options({ tools: catalogue([leaky, "function"]) }),
    );
    expect(!execution.ok && ToolExecutionError.isInstance(execution.error)).toBe(true);
    expect(!execution.ok && execution.error.message).toBe(
      'Tool "leaky" failed: upstream rejected [REDACTED]',
    );
  });

  it.each(["@framework/tools-finance", "node:child_process", "../../x", "runtime"])(
    "refuses a call whose module_path is %s instead of the record's",
    async (modulePath) => {
      const call: ToolCall = { tool_name: "add", module_path: modulePath, arguments: { a: 1 } };
      const execution = await executeTool(call, options());
      expect(!execution.ok && ToolCallRefusedError.isInstance(execution.error)).toBe(true);
    },
  );

  it("stops a tool that ignores its signal at the time limit, and aborts the tool's signal", async () => {
    const seen: AbortSignal[] = [];
    const tools = catalogue([deafTool(seen), "function"]);
    const execution = await executeTool(
      { tool_name: "deaf", arguments: {} },
      options({ tools, timeoutMs: 1 }),
    );
    expect(!execution.ok && ToolTimeoutError.isInstance(execution.error)).toBe(true);
    expect(seen[0]?.aborted).toBe(true);
  });

  it("gives the tool's own timeoutMs precedence over the caller's", async () => {
    const tools = catalogue([deafTool([], 1), "function"]);
    const execution = await executeTool(
      { tool_name: "deaf", arguments: {} },
      options({ tools, timeoutMs: 60_000 }),
    );
    expect(!execution.ok && execution.error).toMatchObject({ toolName: "deaf", timeoutMs: 1 });
  });

  it("settles as aborted when the caller's signal fires, even if the tool never looks", async () => {
    const seen: AbortSignal[] = [];
    const controller = new AbortController();
    const running = executeTool(
      { tool_name: "deaf", arguments: {} },
      options({
        tools: catalogue([deafTool(seen), "function"]),
        context: { signal: controller.signal, logger: silentLogger },
      }),
    );
    await expect.poll(() => seen.length).toBe(1);
    controller.abort(new Error("user left"));
    const execution = await running;
    expect(!execution.ok && AbortedError.isInstance(execution.error)).toBe(true);
    expect(seen[0]?.aborted).toBe(true);
  });
});
