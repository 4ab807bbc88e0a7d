import { readdirSync, readFileSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

// The package's folders, lowest first. A folder's code imports only from folders of lower
// layers (and from itself), so each layer can be read, tested and changed knowing only what is
// below it, and no import circle can form between folders. Folders of one layer do not import
// each other. Tests and the root entry point (index.ts) may import from anywhere.
//
// - log: loggers and secret redaction, which everything uses, errors included.
// - error, http: the failure vocabulary (FrameworkError and its classes, redacted as they are
//   made) and the description of an HTTP error body.
// - auth, model: the two ways out of the process, verifying a token and calling a chat model;
//   neither knows the other.
// - telemetry: spans around model calls and around any work it is given; generic over what it
//   traces, so it knows neither tools nor agents.
// - tool: defining a tool, its record, and running one call of it (in a span).
// - registry: an agent's catalogue of tools and the registry file recording them.
// - agent: the tool loop, built on all of the above. An error that carries an agent run
//   (OutputValidationError) lives here, beside the run it carries.
// - internal: the unstable entry point, re-exporting plumbing from every layer.
const layers: readonly (readonly string[])[] = [
  ["log"],
  ["error", "http"],
  ["auth", "model"],
  ["telemetry"],
  ["tool"],
  ["registry"],
  ["agent"],
  ["internal"],
];

const src = dirname(fileURLToPath(import.meta.url));

function productionFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return productionFiles(path);
    const isTest = entry.name.endsWith(".test.ts") || entry.name.startsWith("test-");
    return entry.name.endsWith(".ts") && !isTest ? [path] : [];
  });
}

/** The folder of `src` a path lies in; `undefined` for the entry point at its root. */
function folderOf(path: string): string | undefined {
  const parts = relative(src, path).split("/");
  return parts.length > 1 ? parts[0] : undefined;
}

/** Every `import … from "./x.js"` and `export … from "../y.js"` of a file, resolved. */
function relativeImports(file: string): string[] {
  const text = readFileSync(file, "utf8");
  return [...text.matchAll(/\bfrom\s+"(\.{1,2}\/[^"]+)"/g)].map((match) =>
    resolve(dirname(file), match[1]!),
  );
}

const layerOf = (folder: string): number => layers.findIndex((layer) => layer.includes(folder));

describe("core's folders", () => {
  const folders = readdirSync(src, { withFileTypes: true })
    // Hidden folders (a test runner's reports) hold no code.
    .filter((entry) => entry.isDirectory() && !entry.name.startsWith("."))
    .map((entry) => entry.name);

  it("each sit in a layer", () => {
    expect(folders.filter((folder) => layerOf(folder) < 0)).toEqual([]);
  });

  it("import only from the layers below their own", () => {
    const upward: string[] = [];
    for (const file of productionFiles(src)) {
      const from = folderOf(file);
      if (from === undefined) continue;
      for (const target of relativeImports(file)) {
        const to = folderOf(target);
        // The root entry point is above every folder.
        if (to !== undefined && (to === from || layerOf(to) < layerOf(from))) continue;
        upward.push(`${relative(src, file)} -> ${relative(src, target)}`);
      }
    }
    expect(upward).toEqual([]);
  });
});
