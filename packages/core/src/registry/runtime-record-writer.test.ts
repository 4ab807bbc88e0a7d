import { mkdir, readFile, rm, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { z } from "zod";
import { RegistryFileError } from "../error/registry-file-error.js";
import { getToolSpec, primaryFunction } from "../tool/primary-function.js";
import { createToolRecord, RUNTIME_MODULE_PATH, type ToolRecord } from "../tool/tool-record.js";
import { RegistryFile } from "./registry-file.js";
import { RuntimeRecordWriter } from "./runtime-record-writer.js";
import { temporaryDirectory } from "./test-temporary-directory.js";

let dir: string;
let cleanup: () => Promise<void>;
beforeEach(async () => {
  ({ dir, cleanup } = await temporaryDirectory());
});
afterEach(() => cleanup());

/** The record of a runtime tool named `name`. */
function runtimeRecord(name: string): ToolRecord {
  const tool = primaryFunction(
    { name, description: "Generated.", parameters: z.object({}), returns: "str" },
    () => "ok",
  );
  return createToolRecord(getToolSpec(tool), {
    modulePath: RUNTIME_MODULE_PATH,
    toolType: "function",
    dependencies: [],
    isRuntime: true,
  });
}

const registryFile = () => new RegistryFile("templates/tools.json", dir);

describe("RuntimeRecordWriter", () => {
  it("writes a burst of records as one batch, and what comes during a write as the next", async () => {
    const file = registryFile();
    let release: () => void = () => {};
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    const merge = file.merge.bind(file);
    const batches: string[][] = [];
    vi.spyOn(file, "merge").mockImplementation(async (records) => {
      batches.push(records.map((record) => record.tool_name));
      if (batches.length === 1) await held;
      return merge(records);
    });
    const writer = new RuntimeRecordWriter(file);
    for (const name of ["a", "b", "c"]) writer.queue(runtimeRecord(name));
    await vi.waitFor(() => expect(batches).toHaveLength(1));
    // The first batch's write is under way: these wait for it, then go together.
    for (const name of ["d", "e", "f"]) writer.queue(runtimeRecord(name));
    release();
    await writer.settled();
    expect(batches).toEqual([
      ["a", "b", "c"],
      ["d", "e", "f"],
    ]);
    expect(Object.keys(await file.read()).sort()).toEqual(["a", "b", "c", "d", "e", "f"]);
  });

  it("loses no record when several writers write bursts to one file at once", async () => {
    const writers = Array.from({ length: 5 }, () => new RuntimeRecordWriter(registryFile()));
    writers.forEach((writer, w) => {
      for (let i = 0; i < 100; i++) writer.queue(runtimeRecord(`w${w}_${i}`));
    });
    await Promise.all(writers.map((writer) => writer.settled()));
    expect(Object.keys(await registryFile().read())).toHaveLength(500);
  });

  it("reports a failed batch write once from settled(), and writes the next batch", async () => {
    const path = join(dir, "templates", "tools.json");
    await mkdir(join(dir, "templates"), { recursive: true });
    await writeFile(path, "{ torn");
    const writer = new RuntimeRecordWriter(registryFile());
    writer.queue(runtimeRecord("lost"));
    const failure = await writer.settled().catch((error: unknown) => error);
    expect(RegistryFileError.isInstance(failure) && failure.problem).toBe("corrupt");
    await expect(readFile(path, "utf8")).resolves.toBe("{ torn");
    await writer.settled();
    await rm(path);
    writer.queue(runtimeRecord("kept"));
    await writer.settled();
    expect(Object.keys(await registryFile().read())).toEqual(["kept"]);
  });
});
