import { mkdir, readdir, readFile, writeFile } from "node:fs/promises";
import { join, relative } from "node:path";
import { createCapturingLogger } from "@framework/testing";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { z } from "zod";
import * as weatherTools from "../../test/fixtures/weather-tools.js";
import { ToolModuleError } from "../error/tool-module-error.js";
import { silentLogger } from "../log/logger.js";
import { executeTool } from "../tool/execute-tool.js";
import { primaryFunction, type ToolContext } from "../tool/primary-function.js";
import type { ToolCall } from "../tool/tool-call.js";
import { RegistryFile } from "./registry-file.js";
import { writeModuleRecords } from "./test-module-records.js";
import { temporaryDirectory } from "./test-temporary-directory.js";
import { ToolRegistry } from "./tool-registry.js";

const fixturePath = new URL("../../test/fixtures/weather-tools.ts", import.meta.url).pathname;
const context: ToolContext = { signal: new AbortController().signal, logger: silentLogger };

/** Runs `call` selecting among the registry's tools, as the agent does. */
const run = (tools: ToolRegistry, call: ToolCall) =>
  executeTool(call, { tools, context, timeoutMs: 60_000, logger: silentLogger });

let dir: string;
let cleanup: () => Promise<void>;
beforeEach(async () => {
  ({ dir, cleanup } = await temporaryDirectory());
});
afterEach(() => cleanup());

function registry(logger = createCapturingLogger(), adoptRecordedTools = false) {
  return {
    logger,
    tools: new ToolRegistry({
      file: new RegistryFile("templates/tools.json", dir),
      logger,
      cwd: dir,
      adoptRecordedTools,
    }),
  };
}

/** Installs a package in the temporary app's node_modules that re-exports the fixture. */
async function installFixturePackage(): Promise<void> {
  const pkg = join(dir, "node_modules", "fixture-tools-package");
  await mkdir(pkg, { recursive: true });
  await writeFile(
    join(pkg, "package.json"),
    JSON.stringify({
      name: "fixture-tools-package",
      type: "module",
      exports: { ".": { import: "./index.js" } },
      dependencies: { zod: "^4.0.0", "left-pad": "^1.3.0" },
    }),
  );
  await writeFile(join(pkg, "index.js"), `export * from ${JSON.stringify(fixturePath)};\n`);
}

describe("ToolRegistry.registerModule", () => {
  it("registers every tool a package exports, resolved from the working directory", async () => {
    await installFixturePackage();
    const { tools, logger } = registry();
    const records = await tools.registerModule("fixture-tools-package");
    expect(records.map((r) => r.tool_name)).toEqual(["get_weather", "add"]);
    expect(records[0]).toMatchObject({
      arguments: { city: "string", unit: "celsius" },
      docstring: "Current weather for a city.",
      dependencies: ["zod", "left-pad"],
      module_path: "fixture-tools-package",
      tool_type: "module",
    });
    expect(logger.infos).toEqual([
      `Registered get_weather: ${JSON.stringify(records[0])}`,
      `Registered add: ${JSON.stringify(records[1])}`,
      "Completed registration for module fixture-tools-package",
    ]);
    const stored = JSON.parse(await readFile(join(dir, "templates/tools.json"), "utf8"));
    expect(stored).toEqual({ get_weather: records[0], add: records[1] });
  });

  it("registers a module by a path relative to the working directory", async () => {
    const { tools } = registry();
    const specifier = `./${relative(dir, fixturePath)}`;
    const records = await tools.registerModule(specifier);
    expect(records.map((r) => r.module_path)).toEqual([specifier, specifier]);
  });

  it("registers a module object and a single tool", async () => {
    const { tools } = registry();
    expect((await tools.registerModule(weatherTools)).map((r) => r.tool_name)).toEqual([
      "get_weather",
      "add",
    ]);
    expect((await tools.registerModule(weatherTools.add))[0]?.module_path).toBe("inline");
  });

  it("explains a module that throws something other than an Error on import", async () => {
    await writeFile(join(dir, "throws-text.mjs"), 'throw "no config file";\n');
    const { tools } = registry();
    const error = await tools.registerModule("./throws-text.mjs").catch((e: unknown) => e);
    expect(ToolModuleError.isInstance(error)).toBe(true);
    expect((error as Error).message).toMatch(
      /^Cannot import tool module "\.\/throws-text\.mjs" \(file:.*\): no config file$/,
    );
  });

  it("explains a module that cannot be resolved or exports no tool", async () => {
    const { tools } = registry();
    const missing = await tools.registerModule("no-such-package").catch((e: unknown) => e);
    expect(ToolModuleError.isInstance(missing)).toBe(true);
    expect((missing as Error).message).toMatch(/Cannot resolve tool module "no-such-package" from/);
    const empty = await tools.registerModule({ value: 1 }).catch((e: unknown) => e);
    expect((empty as Error).message).toMatch(/exports no tool/);
  });
});

describe("ToolRegistry.registerFunctionTool", () => {
  it("registers a runtime tool, logs it, and persists it in the background", async () => {
    const { tools, logger } = registry();
    const record = tools.registerFunctionTool(weatherTools.add);
    expect(record).toMatchObject({
      module_path: "runtime",
      tool_type: "function",
      is_runtime: true,
    });
    expect(logger.infos).toEqual(["Registered tool: add (runtime)"]);
    await tools.settled();
    const stored = JSON.parse(await readFile(join(dir, "templates/tools.json"), "utf8"));
    expect(stored.add).toEqual(record);
  });

  it("refuses a plain function", () => {
    const { tools } = registry();
    // @ts-expect-error: a function not made by primaryFunction
    expect(() => tools.registerFunctionTool(() => 1)).toThrow(/primaryFunction/);
  });
});

describe("ToolRegistry.definitions", () => {
  it("offers its own tools with JSON Schema parameters", async () => {
    const { tools } = registry();
    await tools.registerModule(weatherTools);
    const [weather] = await tools.definitions();
    expect(weather).toEqual({
      name: "get_weather",
      description: "Current weather for a city.\nUses a fixed table.",
      parameters: {
        type: "object",
        properties: {
          city: { type: "string" },
          unit: { type: "string", enum: ["celsius", "fahrenheit"], default: "celsius" },
        },
        required: ["city"],
      },
    });
  });

  it("offers only its own tools, never what other agents recorded, by default", async () => {
    await installFixturePackage();
    const first = registry();
    await first.tools.registerModule("fixture-tools-package");
    const second = registry();
    await second.tools.registerModule(weatherTools.add);
    expect((await second.tools.definitions()).map((d) => d.name)).toEqual(["add"]);
    const execution = await run(second.tools, {
      tool_name: "get_weather",
      arguments: { city: "Hanoi" },
    });
    expect(execution.ok).toBe(false);
  });

  it("never imports a recorded module by default, however it is named", async () => {
    const marker = join(dir, "imported.txt");
    const payload = `import { writeFileSync } from "node:fs"; writeFileSync(${JSON.stringify(marker)}, "ran");`;
    await writeModuleRecords(dir, { evil: `data:text/javascript,${encodeURIComponent(payload)}` });
    const { tools } = registry();
    expect(await tools.definitions()).toEqual([]);
    await expect(readFile(marker, "utf8")).rejects.toThrow(/ENOENT/);
  });

  it("with adoptRecordedTools, also offers module tools another agent recorded, but not its runtime tools", async () => {
    await installFixturePackage();
    const first = registry();
    await first.tools.registerModule("fixture-tools-package");
    first.tools.registerFunctionTool(
      primaryFunction(
        { name: "secret_runtime", description: "d", parameters: z.object({}), returns: "x" },
        () => 1,
      ),
    );
    await first.tools.settled();
    const second = registry(createCapturingLogger(), true);
    const names = (await second.tools.definitions()).map((d) => d.name);
    expect(names.sort()).toEqual(["add", "get_weather"]);
    const execution = await run(second.tools, { tool_name: "add", arguments: { a: 2, b: 3 } });
    expect(execution).toMatchObject({ ok: true, result: 5 });
  });
});

describe("ToolRegistry without a registry file", () => {
  it("registers and runs tools without touching the disk", async () => {
    const tools = new ToolRegistry({ logger: silentLogger, cwd: dir });
    await tools.registerModule(weatherTools);
    tools.registerFunctionTool(
      primaryFunction(
        { name: "ping", description: "d", parameters: z.object({}), returns: "str" },
        () => "pong",
      ),
    );
    await tools.settled();
    await tools.reset();
    expect((await tools.definitions()).map((d) => d.name)).toEqual(["get_weather", "add", "ping"]);
    const execution = await run(tools, { tool_name: "ping", arguments: {} });
    expect(execution).toMatchObject({ ok: true, result: "pong" });
    expect(await readdir(dir)).toEqual([]);
  });
});
