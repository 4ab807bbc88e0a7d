import { readFileSync } from "node:fs";

/**
 * The version of the app whose module is at `moduleUrl` (its `src/cli.ts` or `dist/cli.js`),
 * read from the app's `package.json` one directory up, for `--version`.
 */
export function appVersion(moduleUrl: string): string {
  const manifest = JSON.parse(readFileSync(new URL("../package.json", moduleUrl), "utf8")) as {
    version?: string;
  };
  return manifest.version ?? "0.0.0";
}

/** The `Examples:` section shown after `--help`: each command with what it does. */
export function examplesHelp(examples: Array<{ command: string; does: string }>): string {
  const lines = examples.map(({ command, does }) => `  $ ${command}\n      ${does}`);
  return `\nExamples:\n${lines.join("\n")}\n`;
}
