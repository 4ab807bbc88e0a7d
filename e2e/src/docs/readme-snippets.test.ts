import { type ChildProcess, fork, spawnSync } from "node:child_process";
import { mkdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type OfflineServices, startOfflineServices } from "./offline-services.js";
import {
  isSnippetAnnotation,
  readmeSnippets,
  type Snippet,
  snippetPath,
} from "./readme-snippets.js";
import { readmeFiles, repoRoot } from "./workspace-docs.js";

// Every TypeScript block of every README is a complete program a user can paste: it must
// type-check against the built packages (as installed from npm: no source condition) and run
// offline, against fakes of the model and the upstreams, within a hang guard.

const snippetsDir = join(repoRoot, "e2e", ".readme-snippets");
const runner = fileURLToPath(new URL("./snippet-runner.mjs", import.meta.url));
const snippetTimeoutMs = 60_000;
const batches = 3;

const snippets = readmeFiles().flatMap(readmeSnippets);
const fileOf = (snippet: Snippet) => join(snippetsDir, snippetPath(snippet));
const where = (snippet: Snippet) => `${snippet.readme}:${snippet.line}`;

interface Outcome {
  ok: boolean;
  error?: string;
}

/** Runs the files in one child process; resolves with each file's outcome. */
function runBatch(files: string[], env: Record<string, string>): Promise<Map<string, Outcome>> {
  const outcomes = new Map<string, Outcome>();
  return new Promise((resolve) => {
    const child: ChildProcess = fork(runner, files, {
      cwd: snippetsDir,
      execArgv: ["--import", "tsx"],
      env,
      stdio: ["ignore", "pipe", "pipe", "ipc"],
    });
    let output = "";
    child.stdout?.on("data", (chunk) => {
      output += chunk;
    });
    child.stderr?.on("data", (chunk) => {
      output += chunk;
    });
    child.on("message", (message: { file: string } & Outcome) => {
      outcomes.set(message.file, message);
    });
    child.on("exit", (code) => {
      for (const file of files) {
        if (!outcomes.has(file)) {
          outcomes.set(file, {
            ok: false,
            error: `its process exited (code ${code}) before it finished:\n${output.slice(-4000)}`,
          });
        }
      }
      resolve(outcomes);
    });
  });
}

describe("README TypeScript blocks are complete programs", () => {
  let services: OfflineServices;
  let charts: string;

  beforeAll(async () => {
    rmSync(snippetsDir, { recursive: true, force: true });
    mkdirSync(snippetsDir, { recursive: true });
    for (const snippet of snippets) {
      mkdirSync(dirname(fileOf(snippet)), { recursive: true });
      writeFileSync(fileOf(snippet), `${snippet.code}\n`);
    }
    writeFileSync(
      join(snippetsDir, "tsconfig.json"),
      JSON.stringify({
        compilerOptions: {
          target: "ES2022",
          lib: ["ES2023"],
          module: "NodeNext",
          moduleResolution: "NodeNext",
          moduleDetection: "force",
          types: ["node"],
          strict: true,
          skipLibCheck: true,
          noEmit: true,
        },
        files: snippets.map(snippetPath),
      }),
    );
    services = await startOfflineServices();
    charts = join(tmpdir(), `readme-snippets-charts-${process.pid}`);
  });

  afterAll(async () => {
    await services?.close();
    rmSync(charts, { recursive: true, force: true });
  });

  it("finds blocks, each with known annotations only and no duplicate file names", () => {
    expect(snippets.length).toBeGreaterThan(40);
    const unknown = snippets.filter((snippet) => !snippet.annotations.every(isSnippetAnnotation));
    expect(unknown.map(where)).toEqual([]);
    const paths = snippets.map(snippetPath);
    expect(paths.filter((path, index) => paths.indexOf(path) !== index)).toEqual([]);
  });

  it("declares nothing at the top level that shadows a global such as crypto or fetch", () => {
    const declared = /^(?:export\s+)?(?:const|let|var|function|class)\s+([A-Za-z_$][\w$]*)/gm;
    const shadowing = snippets.flatMap((snippet) =>
      [...snippet.code.matchAll(declared)]
        .map((match) => match[1] ?? "")
        .filter((name) => name in globalThis)
        .map((name) => `${where(snippet)}: \`${name}\` shadows the global of that name`),
    );
    expect(shadowing).toEqual([]);
  });

  it("type-checks every block against the built packages", () => {
    const tsc = join(repoRoot, "node_modules", ".bin", "tsc");
    const result = spawnSync(tsc, ["-p", snippetsDir, "--pretty", "false"], { encoding: "utf8" });
    const bySnippet = new Map(snippets.map((snippet) => [snippetPath(snippet), snippet]));
    // Point each error at its README line instead of the generated file.
    const errors = `${result.stdout}${result.stderr}`
      .split("\n")
      .filter(Boolean)
      .map((line) => {
        const match = /^(.+?\.ts)\((\d+),(\d+)\): (.*)$/.exec(line);
        const snippet = match && bySnippet.get(match[1]?.split("/").slice(-2).join("/") ?? "");
        return snippet && match
          ? `${snippet.readme}:${snippet.line + Number(match[2])}: ${match[4]}`
          : line;
      });
    expect(errors).toEqual([]);
    expect(result.status).toBe(0);
  });

  it("runs every block offline", { timeout: 600_000 }, async () => {
    const runnable = snippets.filter((snippet) => !snippet.annotations.includes("no-run"));
    expect(runnable.length).toBeGreaterThan(snippets.length * 0.8);
    const env: Record<string, string> = {
      PATH: process.env.PATH ?? "",
      HOME: process.env.HOME ?? "",
      TZ: "UTC",
      FRAMEWORK_CHARTS_DIR: charts,
      SNIPPET_TIMEOUT_MS: String(snippetTimeoutMs),
      ...services.environment,
    };
    const groups = Array.from({ length: batches }, (_, batch) =>
      runnable.filter((_, index) => index % batches === batch).map(fileOf),
    );
    const outcomes = new Map(
      (await Promise.all(groups.map((files) => runBatch(files, env)))).flatMap((map) => [...map]),
    );
    const failures = runnable.flatMap((snippet) => {
      const outcome = outcomes.get(fileOf(snippet));
      return outcome?.ok ? [] : [`${where(snippet)}: ${outcome?.error ?? "did not run"}`];
    });
    expect(failures).toEqual([]);
  });
});
