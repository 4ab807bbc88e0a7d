import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { sampleDataHeadline } from "@framework/cli-kit";
import { type FakeServices, spawnApp, startFakeServices } from "@framework/demo-kit";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { researchAnalyst } from "./offline/research-analyst.js";

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
  it("piped, prints the sample-data headline first and the answer, nothing on stderr", async () => {
    const result = await research(["--offline"], {});
    expect(result.code).toBe(0);
    expect(result.stdout.split("\n")[0]).toBe(sampleDataHeadline);
    expect(result.stderr).toBe("");
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
