import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join, relative } from "node:path";
import { describe, expect, it } from "vitest";
import { publishedPackages } from "./workspace-docs.js";

// Members marked `@internal` are engine plumbing: declarations are built with `stripInternal`,
// so users never type against them. One that survives into a published `.d.ts` (a build
// without the option, or a marker where TypeScript cannot strip it) is a promise made by
// mistake.

function declarationFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return declarationFiles(path);
    return entry.name.endsWith(".d.ts") ? [path] : [];
  });
}

describe("published declarations expose nothing marked @internal", () => {
  for (const pkg of publishedPackages()) {
    it(pkg.name, () => {
      const dist = join(pkg.dir, "dist");
      expect(existsSync(dist), `${pkg.name} is not built`).toBe(true);
      const leaks = declarationFiles(dist).flatMap((file) =>
        readFileSync(file, "utf8")
          .split("\n")
          .flatMap((line, index) =>
            line.includes("@internal")
              ? [`${relative(pkg.dir, file)}:${index + 1}: ${line.trim()}`]
              : [],
          ),
      );
      expect(leaks).toEqual([]);
    });
  }
});
