import { readFileSync } from "node:fs";
import { fromRoot } from "./workspace-docs.js";

/** A fenced TypeScript block of a README. */
export interface Snippet {
  /** The README, relative to the repository root. */
  readme: string;
  /** The line of the opening fence (1-based). */
  line: number;
  /** The words after the language, e.g. `no-run`. */
  annotations: string[];
  code: string;
}

/**
 * Whether a word after ```ts is an annotation the tests know. `no-run`: type-checked but not
 * run, for the rare block that needs what a test cannot give it offline (a database, a process
 * it spawns, a test runner). `file=<name>.ts`: the block is that file (a module other blocks of
 * the same README import as `./<name>.js`), instead of a program of its own.
 */
export function isSnippetAnnotation(word: string): boolean {
  return word === "no-run" || /^file=[\w-]+\.ts$/.test(word);
}

/** Every ```ts / ```typescript block of a README. */
export function readmeSnippets(file: string): Snippet[] {
  const lines = readFileSync(file, "utf8").split("\n");
  const snippets: Snippet[] = [];
  for (let index = 0; index < lines.length; index++) {
    const fence = /^```(?:ts|typescript)(?:\s+(.*))?$/.exec(lines[index] ?? "");
    if (!fence) continue;
    const end = lines.findIndex((line, at) => at > index && line.startsWith("```"));
    if (end === -1) throw new Error(`${fromRoot(file)}:${index + 1}: unclosed code block`);
    snippets.push({
      readme: fromRoot(file),
      line: index + 1,
      annotations: (fence[1] ?? "").split(/\s+/).filter(Boolean),
      code: lines.slice(index + 1, end).join("\n"),
    });
    index = end;
  }
  return snippets;
}

/**
 * Where a snippet is written, relative to the snippets directory: one directory per README (so
 * blocks of a README can import each other's `file=` modules), and the file named by its
 * `file=` annotation or by its line, so a failure points back at the block.
 */
export function snippetPath(snippet: Snippet): string {
  const readme = snippet.readme.replace(/\/?README\.md$/, "").replace(/[^\w]+/g, "_") || "root";
  const named = snippet.annotations.find((word) => word.startsWith("file="));
  return `${readme}/${named ? named.slice("file=".length) : `L${snippet.line}.ts`}`;
}
