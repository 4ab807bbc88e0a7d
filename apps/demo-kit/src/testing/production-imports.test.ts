import { readdirSync, readFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

const root = resolve(dirname(fileURLToPath(import.meta.url)), "../../../..");
const doubles = new Set(["@framework/testing", "@framework/demo-kit"]);
// An app's `./offline` subpath is its scripted model, a test double too (`pnpm serve --offline`
// loads all three).
const appScriptedModel = /^@framework\/app-[\w-]+\/offline$/;

/** Every workspace package by name, with its directory. */
function workspacePackages(): Map<string, string> {
  const packages = new Map<string, string>();
  for (const group of ["packages", "apps"]) {
    for (const entry of readdirSync(join(root, group), { withFileTypes: true })) {
      if (!entry.isDirectory()) continue;
      const dir = join(root, group, entry.name);
      try {
        const { name } = JSON.parse(readFileSync(join(dir, "package.json"), "utf8")) as {
          name: string;
        };
        packages.set(name, dir);
      } catch {
        // A directory without a package.json is no package.
      }
    }
  }
  return packages;
}

// Type-only imports vanish from the built code; dynamic import() is how --offline loads doubles.
const staticImport = /^\s*(?:import|export)\s+(?!type\s)(?:[^;"']*?\sfrom\s+)?["']([^"']+)["']/gm;

/** The modules `file` loads when it loads: its static, non-type imports. */
function staticImports(file: string): string[] {
  return [...readFileSync(file, "utf8").matchAll(staticImport)].map((match) => match[1] ?? "");
}

/**
 * Follows static imports from `entries` through the workspace's sources, and returns every
 * source file loaded and each path that reaches a test double, as `file -> specifier`.
 */
function followImports(entries: string[]): { files: string[]; toDoubles: string[] } {
  const packages = workspacePackages();
  const seen = new Set<string>();
  const toDoubles: string[] = [];
  const visit = (file: string) => {
    if (seen.has(file)) return;
    seen.add(file);
    for (const specifier of staticImports(file)) {
      const name = specifier.split("/").slice(0, 2).join("/");
      if (doubles.has(name) || appScriptedModel.test(specifier))
        toDoubles.push(`${file.slice(root.length + 1)} -> ${specifier}`);
      else if (specifier.startsWith(".")) {
        visit(resolve(dirname(file), specifier.replace(/\.js$/, ".ts")));
      } else if (packages.has(name) && specifier === name) {
        visit(join(packages.get(name) ?? "", "src/index.ts"));
      }
    }
  };
  for (const entry of entries) visit(entry);
  return { files: [...seen].map((file) => file.slice(root.length + 1)), toDoubles };
}

const pathsToDoubles = (entries: string[]) => followImports(entries).toDoubles;

describe("the apps' production import paths", () => {
  it("load no test double: --offline imports them dynamically", () => {
    const entries = ["cli-kit/src/index.ts"].concat(
      ...["crew", "finance", "research", "server"].map((app) => [
        `${app}/src/index.ts`,
        `${app}/src/cli.ts`,
      ]),
    );
    expect(pathsToDoubles(entries.map((entry) => join(root, "apps", entry)))).toEqual([]);
  });

  it("would see a static import of a double", () => {
    const apps = ["crew", "finance", "research", "server"];
    const offline = apps.map((app) => join(root, "apps", app, "src/offline/start-offline.ts"));
    expect(pathsToDoubles(offline)).toEqual(
      expect.arrayContaining([
        ...apps.map((app) => `apps/${app}/src/offline/start-offline.ts -> @framework/demo-kit`),
        "apps/server/src/offline/reference-analyst.ts -> @framework/app-research/offline",
      ]),
    );
  });

  it("--offline loads the demo's fakes but not the end-to-end harness (./testing)", () => {
    const offline = join(root, "apps/crew/src/offline/start-offline.ts");
    const demo = followImports([offline, join(root, "apps/demo-kit/src/index.ts")]).files;
    expect(demo).toContain("apps/demo-kit/src/offline/fake-services.ts");
    expect(demo.filter((file) => file.startsWith("apps/demo-kit/src/testing/"))).toEqual([]);
  });

  it("cli-kit, which every app loads, does not depend on @framework/testing", () => {
    const manifest = JSON.parse(readFileSync(join(root, "apps/cli-kit/package.json"), "utf8")) as {
      dependencies?: Record<string, string>;
      peerDependencies?: Record<string, string>;
    };
    expect(Object.keys({ ...manifest.dependencies, ...manifest.peerDependencies })).not.toContain(
      "@framework/testing",
    );
  });
});
