import { join, resolve } from "node:path";
import { describe, expect, it } from "vitest";
import { appToolSettings } from "./app-tool-settings.js";

describe("appToolSettings", () => {
  it("resolves tools from the app's package and keeps records under the working directory", () => {
    expect(appToolSettings(import.meta.url)).toEqual({
      cwd: resolve(import.meta.dirname, "../.."),
      toolsPath: join(process.cwd(), "templates", "tools.json"),
    });
  });
});
