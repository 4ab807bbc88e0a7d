import { stat } from "node:fs/promises";
import { join } from "node:path";
import { createCapturingLogger } from "@framework/testing";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { z } from "zod";
import { silentLogger } from "../log/logger.js";
import { executeTool } from "../tool/execute-tool.js";
import { type AnyPrimaryFunction, primaryFunction } from "../tool/primary-function.js";
import { diffLiveTools, isLiveToolSource, liveToolSourceMarker } from "./live-tool-source.js";
import { RegistryFile } from "./registry-file.js";
import { temporaryDirectory } from "./test-temporary-directory.js";
import { ToolRegistry } from "./tool-registry.js";

let dir: string;
let cleanup: () => Promise<void>;
beforeEach(async () => {
  ({ dir, cleanup } = await temporaryDirectory());
});
afterEach(() => cleanup());

function echoTool(name: string, description = `Echoes for ${name}.`): AnyPrimaryFunction {
  return primaryFunction(
    { name, description, parameters: z.object({ text: z.string() }), returns: "str" },
    async ({ text }) => text,
  ) as AnyPrimaryFunction;
}

/** A live source whose tool list the test changes by assigning `tools`. */
function liveSource(tools: AnyPrimaryFunction[]) {
  return {
    [liveToolSourceMarker]: true as const,
    modulePath: "mcp:test",
    tools,
    currentTools() {
      return this.tools;
    },
  };
}

function registry(logger = createCapturingLogger()) {
  return new ToolRegistry({
    file: new RegistryFile("templates/tools.json", dir),
    logger,
    cwd: dir,
  });
}

describe("isLiveToolSource", () => {
  it("recognises marked sources only", () => {
    expect(isLiveToolSource(liveSource([]))).toBe(true);
    expect(isLiveToolSource({ currentTools: () => [] })).toBe(false);
    expect(isLiveToolSource(echoTool("a"))).toBe(false);
    expect(isLiveToolSource(null)).toBe(false);
  });
});

describe("diffLiveTools", () => {
  it("reports new, replaced and removed tools", () => {
    const a = echoTool("a");
    const b = echoTool("b");
    const first = diffLiveTools(new Map(), [a, b]);
    expect(first.added).toEqual([a, b]);
    expect(first.removed).toEqual([]);
    const b2 = echoTool("b", "Changed.");
    const second = diffLiveTools(first.current, [b2]);
    expect(second.added).toEqual([b2]);
    expect(second.removed).toEqual(["a"]);
  });
});

describe("ToolRegistry with a live source", () => {
  it("offers the tools the source has at each definitions() call", async () => {
    const source = liveSource([echoTool("alpha")]);
    const tools = registry();
    const records = await tools.registerModule(source);
    expect(records.map((record) => [record.tool_name, record.module_path])).toEqual([
      ["alpha", "mcp:test"],
    ]);
    expect((await tools.definitions()).map((d) => d.name)).toEqual(["alpha"]);

    source.tools = [echoTool("beta")];
    expect((await tools.definitions()).map((d) => d.name)).toEqual(["beta"]);
    expect(tools.find("alpha")).toBeUndefined();
    expect(tools.records().map((record) => record.tool_name)).toEqual(["beta"]);
  });

  it("runs a live tool through the usual validation", async () => {
    const tools = registry();
    await tools.registerModule(liveSource([echoTool("alpha")]));
    const context = { signal: new AbortController().signal, logger: silentLogger };
    const settings = { tools, context, timeoutMs: 60_000, logger: silentLogger };
    const ok = await executeTool({ tool_name: "alpha", arguments: { text: "hi" } }, settings);
    expect(ok).toMatchObject({ ok: true, result: "hi" });
    const bad = await executeTool({ tool_name: "alpha", arguments: { text: 1 } }, settings);
    expect(bad.ok).toBe(false);
  });

  it("accepts a source that has no tools yet", async () => {
    const source = liveSource([]);
    const tools = registry();
    expect(await tools.registerModule(source)).toEqual([]);
    source.tools = [echoTool("late")];
    expect((await tools.definitions()).map((d) => d.name)).toEqual(["late"]);
  });

  it("keeps a same-named tool registered later by another source when the live one goes", async () => {
    const source = liveSource([echoTool("shared")]);
    const tools = registry();
    await tools.registerModule(source);
    const other = echoTool("shared", "From a module.");
    await tools.registerModule({ shared: other });
    source.tools = [];
    const definitions = await tools.definitions();
    expect(definitions.map((d) => [d.name, d.description])).toEqual([["shared", "From a module."]]);
  });

  it("does not write live tools to the registry file", async () => {
    const tools = registry();
    await tools.registerModule(liveSource([echoTool("alpha")]));
    await tools.settled();
    await expect(stat(join(dir, "templates/tools.json"))).rejects.toThrow();
  });

  it("shows the model a tool's own parametersJsonSchema", async () => {
    const schema = {
      type: "object",
      properties: { path: { type: "string", default: "/" } },
      required: [],
    };
    const tool = primaryFunction(
      {
        name: "list_dir",
        description: "Lists a directory.",
        parameters: z.looseObject({}),
        parametersJsonSchema: schema,
        returns: "str",
      },
      async () => "",
    ) as AnyPrimaryFunction;
    const tools = registry();
    const [record] = await tools.registerModule(liveSource([tool]));
    expect(record?.arguments).toEqual({ path: "/" });
    expect((await tools.definitions())[0]?.parameters).toEqual(schema);
  });
});
