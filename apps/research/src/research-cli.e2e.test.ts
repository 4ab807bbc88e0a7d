import { existsSync } from "node:fs";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { SqliteSaver } from "@framework/checkpoint-sqlite";
import { sampleDataHeadline } from "@framework/cli-kit";
import { type FakeServices, startFakeServices } from "@framework/demo-kit";
import { spawnApp } from "@framework/demo-kit/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { researchAnalyst } from "./offline/research-analyst.js";
import { researchQuery } from "./research-prompt.js";

const script = fileURLToPath(new URL("../dist/cli.js", import.meta.url));
const venueServer = fileURLToPath(
  new URL("../test/fixtures/venue-mcp-server.mjs", import.meta.url),
);

let cwd: string;
let services: FakeServices;

beforeAll(async () => {
  cwd = await mkdtemp(join(tmpdir(), "research-cli-"));
  services = await startFakeServices({ analyst: researchAnalyst });
});
afterAll(async () => {
  await services.close();
  await rm(cwd, { recursive: true, force: true });
});

const research = (args: string[], env: Record<string, string> = services.environment) =>
  spawnApp({ script, args, cwd, env });

describe("pnpm research, against fake services", () => {
  it("searches arXiv for the topic and answers with the papers found: ids, titles, links", async () => {
    const result = await research(["tool-using", "LLM", "agents", "--max-results", "3"]);
    expect(result.stderr).not.toMatch(/^error:/m);
    expect(result.code).toBe(0);
    const [search] = services.arxiv.requests;
    expect(search?.query).toMatchObject({
      search_query: "tool-using LLM agents",
      sortBy: "relevance",
      max_results: "100",
    });
    const [answer, papers] = result.stdout.split("## Papers found");
    expect(answer).toMatch(/^## Answer\n\nHere are the 3 most relevant arXiv papers/);
    const ids = [...(papers ?? "").matchAll(/arXiv:(\d+\.\d+v\d+) \(\d{4}-\d{2}-\d{2}\) (\S+)/g)];
    expect(ids).toHaveLength(3);
    for (const [, id, link] of ids) {
      expect(link).toBe(`http://arxiv.org/pdf/${id}`);
      // The model's answer quotes the same papers the tool returned.
      expect(answer).toContain(`arXiv:${id}`);
    }
    expect(services.llm.chatRequests).toHaveLength(2);
  });

  it("offers the tools of an MCP server given with --mcp, next to the paper tools", async () => {
    const before = services.llm.chatRequests.length;
    // The connection line is an INFO log line, shown only when asked for.
    const result = await research(["agents", "--mcp", `"${process.execPath}" "${venueServer}"`], {
      ...services.environment,
      FRAMEWORK_LOG_LEVEL: "info",
    });
    expect(result.stderr).not.toMatch(/^error:/m);
    expect(result.code).toBe(0);
    const offered = (services.llm.chatRequests[before]?.tools ?? []).map(
      (tool) => tool.function.name,
    );
    expect(offered).toEqual(expect.arrayContaining(["paper_research", "list_venues"]));
    expect(result.stderr).toContain("Connected to MCP server venues over stdio: 1 tools");
  });

  it("exits non-zero with one clear line when an --mcp server cannot be started", async () => {
    const result = await research(["agents", "--mcp", "framework-no-such-mcp-server --flag"]);
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(
      /^error: Could not connect to MCP server "framework-no-such-mcp-server" over stdio: the command was not found/m,
    );
  });

  it("exits non-zero with one clear line when the model service rejects the key", async () => {
    const result = await research(["agents"], { ...services.environment, LLM_API_KEY: "wrong" });
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/^error: the model service rejected the API key \(HTTP 401\)/m);
  });
});

describe("pnpm research --offline", () => {
  it("piped, prints the sample-data headline first and the answer, on stderr only the thread", async () => {
    const result = await research(["--offline"], {});
    expect(result.code).toBe(0);
    expect(result.stdout.split("\n")[0]).toBe(sampleDataHeadline);
    expect(result.stderr).toMatch(
      /^thread [0-9a-f-]{36} \(continue it with --thread [0-9a-f-]{36}\)\n$/,
    );
  });

  it("runs the agent on in-process fakes and a scripted model, and shows it with --verbose", async () => {
    const result = await research(["--offline", "--verbose"], {});
    expect(result.code).toBe(0);
    expect(result.stderr).toMatch(/^A scripted model stands in for the LLM/m);
    expect(result.stderr).toContain("research → paper_research {");
    const [headline, ...answer] = result.stdout.split("\n");
    expect(headline).toBe(sampleDataHeadline);
    expect(answer.join("\n").trimStart()).toMatch(
      /^## Answer\n\nHere are the 5 most relevant arXiv papers/,
    );
    expect(result.stdout).toMatch(
      /## Papers found\n\n1\. .+\n {3}arXiv:\S+ \(\d{4}-\d{2}-\d{2}\) http:\/\/arxiv\.org\/pdf\//,
    );
  });
});

/** The user messages of the model's latest request whose last one asks about `topic`. */
function askedBefore(topic: string): string[] {
  const request = services.llm.chatRequests.findLast((body) =>
    String(body.messages.findLast((m) => m.role === "user")?.content).includes(topic),
  );
  if (!request) throw new Error(`no request about "${topic}"`);
  return request.messages.filter((m) => m.role === "user").map((m) => String(m.content));
}

describe("pnpm research --thread", () => {
  it("continues the conversation of an earlier run, kept in .framework/checkpoints.sqlite", async () => {
    expect((await research(["tool-using agents", "-n", "2", "--thread", "talk"])).code).toBe(0);
    expect(existsSync(join(cwd, ".framework", "checkpoints.sqlite"))).toBe(true);
    const second = await research(["agent planning", "-n", "2", "--thread", "talk"]);
    expect(second.code).toBe(0);
    expect(second.stdout).toMatch(
      /^## Answer\n\nHere are the 2 most relevant arXiv papers I found on "agent planning"/,
    );
    expect(askedBefore("agent planning")).toEqual([
      researchQuery("tool-using agents", 2),
      researchQuery("agent planning", 2),
    ]);
  });

  it("starts a new thread per run without --thread and says its id", async () => {
    const result = await research(["memory for agents", "-n", "2"]);
    expect(result.code).toBe(0);
    expect(result.stderr).toMatch(/thread [0-9a-f-]{36} \(continue it with --thread/);
    expect(askedBefore("memory for agents")).toHaveLength(1);
  });

  it("forgets a thread with --forget, in the --db file, without needing a model key", async () => {
    const db = join(cwd, "chosen.sqlite");
    expect((await research(["agents", "--thread", "gone", "--db", db])).code).toBe(0);
    const forgotten = await research(["--thread", "gone", "--db", db, "--forget"], {});
    expect(forgotten.code).toBe(0);
    expect(forgotten.stdout).toBe(`thread gone deleted from ${db}\n`);
    expect((await research(["agent evaluation", "--thread", "gone", "--db", db])).code).toBe(0);
    expect(askedBefore("agent evaluation")).toHaveLength(1);
  });

  it("refuses --forget without --thread", async () => {
    const result = await research(["--forget"]);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain("--forget needs --thread <id>");
  });

  it("keeps offline conversations in the same file", async () => {
    for (const topic of ["offline first", "offline second"]) {
      expect((await research(["--offline", topic, "--thread", "off"], {})).code).toBe(0);
    }
    const saver = new SqliteSaver({ path: join(cwd, ".framework", "checkpoints.sqlite") });
    try {
      // The second turn's checkpoint holds the whole conversation, the first question included.
      const latest = JSON.stringify(await saver.getLatest("research:off"));
      for (const topic of ["offline first", "offline second"]) {
        expect(latest).toContain(JSON.stringify(researchQuery(topic, 5)));
      }
    } finally {
      saver.close();
    }
  });
});
