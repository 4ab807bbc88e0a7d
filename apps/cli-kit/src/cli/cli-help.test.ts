import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { appVersion, examplesHelp } from "./cli-help.js";

describe("appVersion", () => {
  it("reads the version from the package.json beside the module's directory", () => {
    const manifest = JSON.parse(
      readFileSync(new URL("../../package.json", import.meta.url), "utf8"),
    );
    expect(appVersion(new URL("../index.ts", import.meta.url).href)).toBe(manifest.version);
  });
});

describe("examplesHelp", () => {
  it("lists each command with what it does", () => {
    expect(
      examplesHelp([
        { command: "app --offline", does: "a demo" },
        { command: "app question", does: "asks" },
      ]),
    ).toBe("\nExamples:\n  $ app --offline\n      a demo\n  $ app question\n      asks\n");
  });
});
