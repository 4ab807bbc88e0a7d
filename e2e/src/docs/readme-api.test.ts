import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import {
  exportedNames,
  markdownSection,
  namesInCode,
  publishedPackages,
} from "./workspace-docs.js";

// What a package exports from its root is its promise to users, so each name must be
// documented in its README's "API" section; plumbing belongs under `./internal` instead.

describe("each published package's README names every root export in its API section", () => {
  const packages = publishedPackages();

  it("finds the published packages", () => {
    expect(packages.map((pkg) => pkg.name)).toContain("@framework/core");
  });

  for (const pkg of packages) {
    it(pkg.name, () => {
      const names = exportedNames(readFileSync(join(pkg.dir, "src/index.ts"), "utf8"));
      expect(names.length).toBeGreaterThan(0);
      const api = markdownSection(pkg.readme, "API");
      expect(api, `${pkg.name}'s README has no "## API" section`).toBeDefined();
      const missing = names.filter((name) => !namesInCode(api ?? "", name));
      expect(missing, `exported by ${pkg.name} but not named in its README's API section`).toEqual(
        [],
      );
    });
  }
});

describe("the helpers the documentation tests rely on", () => {
  it("reads explicit export lists, type-only and renamed exports, and declarations", () => {
    const source = [
      'export { a, type B, c as d } from "./x.js";',
      'export type {\n  E,\n  F,\n} from "./y.js";',
      "export const g = 1;",
      "export abstract class H {}",
    ].join("\n");
    expect(exportedNames(source)).toEqual(["a", "B", "d", "E", "F", "g", "H"]);
  });

  it("refuses export * in an entry point", () => {
    expect(() => exportedNames('export * from "./x.js";')).toThrow(/export \*/);
  });

  it("takes a section up to the next heading of its level, and whole names in code only", () => {
    const readme = "# P\n## API\n`Agent.create()` and Tool\n### Sub\n`x`\n## Next\n`Tool`";
    const api = markdownSection(readme, "API") ?? "";
    expect(namesInCode(api, "Agent")).toBe(true);
    expect(namesInCode(api, "x")).toBe(true);
    expect(namesInCode(api, "Tool")).toBe(false);
    expect(namesInCode(api, "Age")).toBe(false);
    expect(markdownSection(readme, "Missing")).toBeUndefined();
  });
});
