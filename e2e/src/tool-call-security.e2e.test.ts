import { access, mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { Agent, ToolCallRefusedError, ToolNotFoundError } from "@framework/core";
import { createCapturingLogger, MockChatModel, ReliabilityTally } from "@framework/testing";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";

// A model in JSON mode writes the whole tool call, module_path included. Naming a module other
// than the one the tool was registered from must be refused, and nothing the model wrote may
// reach import(): the fixture module below records every import of itself in a marker file.
const tally = new ReliabilityTally("tool-call-security");
const packageRoot = fileURLToPath(new URL("..", import.meta.url));
const fixturePath = fileURLToPath(new URL("./fixtures/import-marker-tools.ts", import.meta.url));
let dir: string;
let marker: string;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "e2e-security-"));
  marker = join(dir, "imported.txt");
  vi.stubEnv("E2E_IMPORT_MARKER", marker);
});
afterAll(async () => {
  vi.unstubAllEnvs();
  await rm(dir, { recursive: true, force: true });
  await tally.flush();
});

const markerExists = () =>
  access(marker).then(
    () => true,
    () => false,
  );

/** Runs one JSON-mode reply holding `calls` through an agent with `@framework/tools-time`. */
async function runJsonCalls(calls: object[]) {
  const llm = new MockChatModel([JSON.stringify(calls), "Understood."]);
  const agent = await Agent.create({
    description: "You tell the time.",
    llm,
    tools: ["@framework/tools-time"],
    toolsPath: join(dir, "tools.json"),
    cwd: packageRoot,
    toolCalling: "json",
    logger: createCapturingLogger(),
  });
  const result = await agent.invoke("What time is it?");
  expect(result.content).toBe("Understood.");
  return result;
}

const foreignModulePaths = [
  "@framework/tools-crypto",
  "node:child_process",
  "child_process",
  "../../x",
  "./src/fixtures/import-marker-tools.ts",
  fixturePath,
  pathToFileURL(fixturePath).href,
  'data:text/javascript,import("node:fs").then((fs)=>fs.appendFileSync(process.env.E2E_IMPORT_MARKER,"data"))',
  "runtime",
  "inline",
];

describe("tool calls naming another module_path", () => {
  it("refuses every one and imports nothing", async () => {
    await tally.trial(foreignModulePaths.length + 2, async () => {
      const result = await runJsonCalls([
        ...foreignModulePaths.map((module_path) => ({
          tool_name: "get_current_time",
          tool_type: "module",
          module_path,
          arguments: {},
        })),
        // A tool the agent never registered, named together with the module that exports it.
        { tool_name: "run_shell", module_path: fixturePath, arguments: { command: "id" } },
        // The right module path still works, so the refusals are about the path alone.
        {
          tool_name: "get_current_time",
          module_path: "@framework/tools-time",
          arguments: {},
        },
      ]);
      const outcomes = result.toolCalls;
      expect(outcomes).toHaveLength(foreignModulePaths.length + 2);
      foreignModulePaths.forEach((modulePath, index) => {
        const outcome = outcomes[index];
        expect(outcome?.ok).toBe(false);
        const error = outcome?.ok === false ? outcome.error : undefined;
        expect(ToolCallRefusedError.isInstance(error)).toBe(true);
        expect(error).toMatchObject({
          requestedModulePath: modulePath,
          registeredModulePath: "@framework/tools-time",
        });
      });
      const unknown = outcomes[foreignModulePaths.length];
      expect(unknown?.ok === false && ToolNotFoundError.isInstance(unknown.error)).toBe(true);
      expect(outcomes.at(-1)?.ok).toBe(true);
      expect(await markerExists()).toBe(false);
    });
  });

  it("imports nothing for a native call whose tool name is a module specifier", async () => {
    await tally.trial(2, async () => {
      const llm = new MockChatModel([
        {
          toolCalls: [
            { name: fixturePath, arguments: "{}" },
            { name: "node:child_process", arguments: '{"command": "id"}' },
          ],
        },
        "Understood.",
      ]);
      const agent = await Agent.create({
        description: "You tell the time.",
        llm,
        tools: ["@framework/tools-time"],
        toolsPath: join(dir, "tools.json"),
        cwd: packageRoot,
        logger: createCapturingLogger(),
      });
      const result = await agent.invoke("What time is it?");
      expect(result.toolCalls.map((call) => call.ok)).toEqual([false, false]);
      expect(await markerExists()).toBe(false);
    });
  });

  it("would have seen an import: the marker appears when the module is really imported", async () => {
    await import(pathToFileURL(fixturePath).href);
    await expect(readFile(marker, "utf8")).resolves.toMatch(/^imported by process \d+\n$/);
  });
});
