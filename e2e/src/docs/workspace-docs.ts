import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join, relative } from "node:path";
import { fileURLToPath } from "node:url";

/** The repository root. */
export const repoRoot = fileURLToPath(new URL("../../../", import.meta.url));

/** A package users install from npm: its directory, name and README text. */
export interface PublishedPackage {
  dir: string;
  name: string;
  readme: string;
}

/** Every package under `packages/` that is published (not `"private": true`). */
export function publishedPackages(): PublishedPackage[] {
  const packagesDir = join(repoRoot, "packages");
  return readdirSync(packagesDir)
    .map((entry) => join(packagesDir, entry))
    .filter((dir) => existsSync(join(dir, "package.json")))
    .map((dir) => ({ dir, manifest: JSON.parse(readFileSync(join(dir, "package.json"), "utf8")) }))
    .filter(({ manifest }) => manifest.private !== true)
    .map(({ dir, manifest }) => ({
      dir,
      name: manifest.name as string,
      readme: readFileSync(join(dir, "README.md"), "utf8"),
    }));
}

/**
 * The names an entry module exports, read from its source. Our entry points list every export
 * by name (`export { a, type B } from "./x.js"`); `export *` would hide what is public, so it
 * is refused rather than followed.
 */
export function exportedNames(source: string): string[] {
  if (/^\s*export\s*\*/m.test(source)) {
    throw new Error("`export *` in an entry point: list the public names explicitly.");
  }
  const names: string[] = [];
  for (const match of source.matchAll(/export\s+(?:type\s+)?\{([^}]*)\}/g)) {
    for (const item of (match[1] ?? "").split(",")) {
      const name = item
        .trim()
        .replace(/^type\s+/, "")
        .split(/\s+as\s+/)
        .at(-1);
      if (name) names.push(name);
    }
  }
  const declaration =
    /export\s+(?:declare\s+)?(?:abstract\s+)?(?:async\s+)?(?:const|let|function\*?|class|interface|type|enum)\s+([A-Za-z_$][\w$]*)/g;
  for (const match of source.matchAll(declaration)) if (match[1]) names.push(match[1]);
  return names;
}

/** The text under a `## <title>` heading, up to the next heading of the same level or above. */
export function markdownSection(markdown: string, title: string): string | undefined {
  const lines = markdown.split("\n");
  const start = lines.findIndex((line) => line.trim() === `## ${title}`);
  if (start === -1) return undefined;
  const end = lines.findIndex((line, index) => index > start && /^#{1,2}\s/.test(line));
  return lines.slice(start + 1, end === -1 ? undefined : end).join("\n");
}

/** True when `name` appears as a whole word inside an inline code span of `markdown`. */
export function namesInCode(markdown: string, name: string): boolean {
  const word = new RegExp(`(^|[^\\w$])${name.replace(/\$/g, "\\$")}($|[^\\w$])`);
  return [...markdown.matchAll(/`([^`\n]+)`/g)].some((span) => word.test(span[1] ?? ""));
}

/** Every README a user reads: the root one, the packages' and the apps'. */
export function readmeFiles(): string[] {
  const files = [join(repoRoot, "README.md")];
  for (const group of ["packages", "apps"]) {
    const dir = join(repoRoot, group);
    for (const entry of readdirSync(dir).sort()) {
      const file = join(dir, entry, "README.md");
      if (existsSync(file)) files.push(file);
    }
  }
  return files;
}

/** A path relative to the repository root, for messages. */
export const fromRoot = (path: string) => relative(repoRoot, path);
