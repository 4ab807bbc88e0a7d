import type { ChildProcess } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { runFixtureChild } from "@framework/testing";
import { Client } from "@langchain/langgraph-sdk";
import { afterEach, describe, expect, it } from "vitest";

const packageRoot = new URL("..", import.meta.url).pathname;
const fixture = new URL("./test-restart-server.ts", import.meta.url).pathname;
let directory = "";
afterEach(() => rmSync(directory, { recursive: true, force: true }));

/** Starts a server child and resolves with its URL and a way to kill it. */
function startChild(args: string[]) {
  let child!: ChildProcess;
  let ready!: (url: string) => void;
  const url = new Promise<string>((resolve) => {
    ready = resolve;
  });
  const exited = runFixtureChild(fixture, args, {
    cwd: packageRoot,
    onStart: (started) => {
      child = started;
    },
    onLine: (line) => {
      if (line.startsWith("listening ")) ready(line.slice("listening ".length));
    },
  });
  return { url, exited, kill: () => child.kill("SIGKILL") };
}

describe("a server killed mid-run", () => {
  it("resumes the run from its last checkpoint on restart, and a rejoining client gets the rest", async () => {
    directory = mkdtempSync(join(tmpdir(), "framework-restart-"));
    const database = join(directory, "server.sqlite");
    const nodeLog = join(directory, "nodes.log");
    const gate = join(directory, "gate");
    writeFileSync(nodeLog, "");

    const first = startChild([database, "0", nodeLog, gate]);
    const client = new Client({ apiUrl: await first.url });
    const thread = await client.threads.create();
    const seen: { id?: string; event: string; data: unknown }[] = [];
    let runId = "";
    for await (const part of client.runs.stream(thread.thread_id, "chain", {
      input: { trail: [] },
      streamMode: ["updates"],
      onRunCreated: ({ run_id }) => {
        runId = run_id;
      },
    })) {
      seen.push(part);
      // `a` has finished and been checkpointed; `b` is running, waiting for its gate.
      if (part.event === "updates" && "a" in (part.data as object)) break;
    }
    first.kill();
    await first.exited;
    expect(readFileSync(nodeLog, "utf8")).toBe("a\nb\n");

    writeFileSync(gate, "");
    const second = startChild([database, "0", nodeLog, gate]);
    const again = new Client({ apiUrl: await second.url });
    const rest = [];
    for await (const part of again.runs.joinStream(thread.thread_id, runId, {
      lastEventId: seen.at(-1)!.id!,
    })) {
      rest.push(part);
    }
    const updates = [...seen, ...rest].filter((part) => part.event === "updates");
    expect(updates.map((part) => Object.keys(part.data as object)[0])).toEqual(["a", "b", "c"]);
    const ids = [...seen, ...rest].map((part) => Number(part.id));
    expect(new Set(ids).size).toBe(ids.length);
    expect(ids).toEqual([...ids].sort((x, y) => x - y));
    // `a` never ran again; `b` ran again because it had not finished.
    expect(readFileSync(nodeLog, "utf8")).toBe("a\nb\nb\nc\n");
    const run = await again.runs.get(thread.thread_id, runId);
    expect(run.status).toBe("success");
    expect((await again.threads.getState(thread.thread_id)).values).toEqual({
      trail: ["a", "b", "c"],
    });
    second.kill();
    await second.exited;
  });
});
