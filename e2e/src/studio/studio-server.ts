import { type ChildProcess, spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

/** `pnpm studio --offline` as a child process, on a free port and a fresh database. */
export interface StudioServer {
  readonly studioURL: string;
  close(): Promise<void>;
}

const cli = fileURLToPath(new URL("../../../apps/server/dist/cli.js", import.meta.url));

/** Starts the reference agents' server with `--offline --studio` and waits for its studio URL. */
export async function startStudioServer(): Promise<StudioServer> {
  const directory = mkdtempSync(join(tmpdir(), "framework-studio-"));
  const child: ChildProcess = spawn(
    process.execPath,
    [cli, "--offline", "--studio", "--port", "0", "--db", join(directory, "server.sqlite")],
    { stdio: ["ignore", "pipe", "pipe"] },
  );
  let output = "";
  const studioURL = await new Promise<string>((resolve, reject) => {
    const onData = (chunk: Buffer) => {
      output += chunk.toString("utf8");
      const found = /Studio: (http:\/\/\S+)/.exec(output);
      if (found) resolve(found[1]!);
    };
    child.stdout!.on("data", onData);
    child.stderr!.on("data", onData);
    child.once("exit", (code) =>
      reject(new Error(`the studio server exited (${code}): ${output}`)),
    );
  });
  return {
    studioURL,
    async close() {
      if (child.exitCode === null) {
        const exited = new Promise((resolve) => child.once("exit", resolve));
        child.kill("SIGTERM");
        await exited;
      }
      rmSync(directory, { recursive: true, force: true });
    },
  };
}
