import { execFile } from "node:child_process";
import { readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { RegistryFileError } from "../error/registry-file-error.js";
import type { ToolRecord } from "../tool/tool-record.js";
import { RegistryFile } from "./registry-file.js";
import { temporaryDirectory } from "./test-temporary-directory.js";

const run = promisify(execFile);
const childScript = fileURLToPath(
  new URL("../../test/fixtures/register-tools.ts", import.meta.url),
);

const record = (name: string): ToolRecord => ({
  tool_name: name,
  arguments: {},
  return: "str",
  docstring: "d",
  dependencies: [],
  module_path: "m",
  tool_type: "module",
  tool_call_id: `tool_${name}`,
});

let dir: string;
let cleanup: () => Promise<void>;
beforeEach(async () => {
  ({ dir, cleanup } = await temporaryDirectory());
});
afterEach(() => cleanup());

describe("RegistryFile", () => {
  it("defaults to templates/tools.json under the working directory", () => {
    expect(new RegistryFile(undefined, dir).path).toBe(join(dir, "templates", "tools.json"));
  });

  it("reads an absent file as empty and creates it with its folder on first write", async () => {
    const file = new RegistryFile("templates/tools.json", dir);
    await expect(file.read()).resolves.toEqual({});
    await file.merge([record("a")]);
    const stored = JSON.parse(await readFile(file.path, "utf8"));
    expect(stored).toEqual({ a: record("a") });
  });

  it("merges with what is on disk and replaces a record of the same name", async () => {
    const file = new RegistryFile("tools.json", dir);
    await file.merge([record("a"), record("b")]);
    await file.merge([{ ...record("b"), return: "int" }, record("c")]);
    const stored = await file.read();
    expect(Object.keys(stored).sort()).toEqual(["a", "b", "c"]);
    expect(stored.b?.return).toBe("int");
  });

  it("loses nothing when many writers merge at once in one process", async () => {
    const writers = Array.from({ length: 25 }, () => new RegistryFile("tools.json", dir));
    await Promise.all(writers.map((file, i) => file.merge([record(`t${i}`)])));
    expect(Object.keys(await writers[0]!.read())).toHaveLength(25);
  });

  it("loses nothing when two processes register into one file at the same time", async () => {
    const path = join(dir, "shared.json");
    await Promise.all(
      ["alpha", "beta"].map((prefix) =>
        run(process.execPath, ["--import", "tsx", childScript, path, prefix, "15"], {
          cwd: fileURLToPath(new URL("../..", import.meta.url)),
          env: { ...process.env, NODE_OPTIONS: "" },
        }),
      ),
    );
    const stored = await new RegistryFile(path).read();
    expect(Object.keys(stored)).toHaveLength(30);
    expect(stored.alpha_14?.is_runtime).toBe(true);
    expect(stored.beta_0?.module_path).toBe("runtime");
  }, 300_000);

  it("refuses a record that is not an object, naming the file and the record", async () => {
    const file = new RegistryFile("tools.json", dir);
    for (const bad of [null, 42, "text", [record("a")]]) {
      await writeFile(file.path, JSON.stringify({ a: record("a"), broken: bad }));
      const error = await file.read().catch((caught: unknown) => caught);
      expect(RegistryFileError.isInstance(error)).toBe(true);
      expect(error).toMatchObject({ path: file.path, problem: "corrupt", record: "broken" });
      expect((error as Error).message).toContain('"broken"');
      await expect(file.merge([record("b")])).rejects.toSatisfy(RegistryFileError.isInstance);
    }
  });

  it("reports a folder it cannot create as a RegistryFileError, not a bare errno", async () => {
    await writeFile(join(dir, "blocker"), "a file where the folder should be");
    const file = new RegistryFile("blocker/templates/tools.json", dir);
    const error = await file.merge([record("a")]).catch((caught: unknown) => caught);
    expect(RegistryFileError.isInstance(error)).toBe(true);
    expect(error).toMatchObject({ path: file.path, problem: "io" });
    expect((error as Error).message).toContain(file.path);
  });

  it("empties the records on reset", async () => {
    const file = new RegistryFile("tools.json", dir);
    await file.merge([record("a")]);
    await file.reset();
    await expect(file.read()).resolves.toEqual({});
  });

  it.each([
    ["not JSON", "{ this is not json"],
    ["an array", "[1, 2]"],
  ])(
    "refuses a corrupt file (%s) with an error naming the path, and leaves it untouched",
    async (_, content) => {
      const file = new RegistryFile("tools.json", dir);
      await writeFile(file.path, content);
      for (const action of [
        () => file.read(),
        () => file.merge([record("a")]),
        () => file.reset(),
      ]) {
        const error = await action().catch((e: unknown) => e);
        expect(RegistryFileError.isInstance(error)).toBe(true);
        expect((error as RegistryFileError).problem).toBe("corrupt");
        expect((error as RegistryFileError).path).toBe(file.path);
        expect((error as Error).message).toContain(file.path);
        expect((error as Error).message).toMatch(/left untouched.*delete it/);
      }
      await expect(readFile(file.path, "utf8")).resolves.toBe(content);
    },
  );

  it("takes over a lock left by a process that no longer exists", async () => {
    const file = new RegistryFile("tools.json", dir);
    const { stdout } = await run(process.execPath, [
      "-e",
      "process.stdout.write(String(process.pid))",
    ]);
    await writeFile(`${file.path}.lock`, stdout);
    await file.merge([record("a")]);
    await expect(file.read()).resolves.toEqual({ a: record("a") });
  });
});
