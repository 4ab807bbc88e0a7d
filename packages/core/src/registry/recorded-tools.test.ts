import { readFile, rm, writeFile } from "node:fs/promises";
import { join, relative } from "node:path";
import { pathToFileURL } from "node:url";
import { createCapturingLogger } from "@framework/testing";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { RecordedTools } from "./recorded-tools.js";
import { RegistryFile } from "./registry-file.js";
import { writeModuleRecords } from "./test-module-records.js";
import { temporaryDirectory } from "./test-temporary-directory.js";

const fixturePath = new URL("../../test/fixtures/weather-tools.ts", import.meta.url).pathname;

let dir: string;
let cleanup: () => Promise<void>;
beforeEach(async () => {
  ({ dir, cleanup } = await temporaryDirectory());
});
afterEach(() => cleanup());

function recordedTools(logger = createCapturingLogger()) {
  const file = new RegistryFile("templates/tools.json", dir);
  return { logger, recorded: new RecordedTools({ file, cwd: dir, logger }) };
}

const names = (recorded: RecordedTools) => [...recorded.tools.keys()].sort();

describe("RecordedTools", () => {
  it("adopts a module tool recorded from a file inside the working directory", async () => {
    await writeFile(join(dir, "local-tools.js"), `export * from ${JSON.stringify(fixturePath)};\n`);
    await writeModuleRecords(dir, { add: "./local-tools.js", get_weather: "./local-tools.js" });
    const { recorded } = recordedTools();
    await recorded.refresh(new Set());
    expect(names(recorded)).toEqual(["add", "get_weather"]);
    expect(recorded.tools.get("add")?.record.module_path).toBe("./local-tools.js");
    expect(await recorded.tools.get("add")?.spec.execute({ a: 2, b: 3 }, {} as never)).toBe(5);
  });

  it("leaves out the names the agent has itself, and runtime and inline records", async () => {
    await writeFile(join(dir, "local-tools.js"), `export * from ${JSON.stringify(fixturePath)};\n`);
    await writeModuleRecords(dir, {
      add: "./local-tools.js",
      get_weather: "./local-tools.js",
      from_runtime: "runtime",
      from_object: "inline",
    });
    const { recorded, logger } = recordedTools();
    await recorded.refresh(new Set(["get_weather"]));
    expect(names(recorded)).toEqual(["add"]);
    expect(logger.lines).toEqual([]);
  });

  it("reads the file again only once it changed, and again after forget()", async () => {
    await writeFile(join(dir, "local-tools.js"), `export * from ${JSON.stringify(fixturePath)};\n`);
    await writeModuleRecords(dir, { add: "./local-tools.js" });
    const { recorded } = recordedTools();
    await recorded.refresh(new Set());
    expect(names(recorded)).toEqual(["add"]);
    // Same modification time: the file is not read, so the new own name changes nothing.
    await recorded.refresh(new Set(["add"]));
    expect(names(recorded)).toEqual(["add"]);
    recorded.forget();
    expect(names(recorded)).toEqual([]);
    await recorded.refresh(new Set(["add"]));
    expect(names(recorded)).toEqual([]);
  });

  it("adopts nothing while there is no file", async () => {
    const { recorded } = recordedTools();
    await recorded.refresh(new Set());
    expect(names(recorded)).toEqual([]);
  });

  it("refuses URLs, built-ins and files outside the working directory, importing none", async () => {
    const marker = join(dir, "imported.txt");
    const payload = `import { writeFileSync } from "node:fs"; writeFileSync(${JSON.stringify(marker)}, "ran"); export const x = 1;`;
    const outside = join(dir, "..", `outside-${Date.now()}.js`);
    await writeFile(outside, payload);
    try {
      await writeModuleRecords(dir, {
        data_url: `data:text/javascript,${encodeURIComponent(payload)}`,
        http_url: "http://127.0.0.1:9/tools.js",
        builtin: "node:child_process",
        file_url: pathToFileURL(outside).href,
        absolute: outside,
        relative: relative(dir, outside),
        fixture: fixturePath,
      });
      const { recorded, logger } = recordedTools();
      await recorded.refresh(new Set());
      expect(names(recorded)).toEqual([]);
      await expect(readFile(marker, "utf8")).rejects.toThrow(/ENOENT/);
      expect(logger.lines.filter((line) => line.includes("not adopted"))).toHaveLength(7);
    } finally {
      await rm(outside, { force: true });
    }
  });
});
