import { existsSync } from "node:fs";
import { mkdtemp, readdir, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { sampleDataHeadline } from "@framework/cli-kit";
import { type FakeServices, startFakeServices } from "@framework/demo-kit";
import { spawnApp } from "@framework/demo-kit/testing";
import type { OpenAIChatRequestBody } from "@framework/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type FinanceAnswer, FinanceReport, renderFinanceReport } from "./finance-report.js";
import { financeAnalyst } from "./offline/finance-analyst.js";

const script = fileURLToPath(new URL("../dist/cli.js", import.meta.url));
const question = "How did NVDA do in 2024? Chart it and write a short research report.";
const pngSignature = "89504e470d0a1a0a";

let cwd: string;
let services: FakeServices;

beforeAll(async () => {
  cwd = await mkdtemp(join(tmpdir(), "finance-cli-"));
  services = await startFakeServices({ analyst: financeAnalyst });
});
afterAll(async () => {
  await services.close();
  await rm(cwd, { recursive: true, force: true });
});

function finance(args: string[], chartsDir: string, env = services.environment) {
  return spawnApp({ script, args, cwd, env: { ...env, FRAMEWORK_CHARTS_DIR: chartsDir } });
}

async function expectCharts(chartsDir: string, stdout: string) {
  const files = (await readdir(chartsDir)).sort();
  expect(files).toEqual([
    "NVDA_candlestick_2024-01-01_2025-01-01_1d.html",
    "NVDA_candlestick_2024-01-01_2025-01-01_1d.png",
    "NVDA_returns_2024-01-01_2025-01-01_1d.html",
    "NVDA_returns_2024-01-01_2025-01-01_1d.png",
  ]);
  for (const png of files.filter((file) => file.endsWith(".png"))) {
    expect((await readFile(join(chartsDir, png))).subarray(0, 8).toString("hex")).toBe(
      pngSignature,
    );
    // Every chart written is named in the output.
    expect(stdout).toContain(png);
  }
}

describe("pnpm finance, against fake services", () => {
  it("fetches, charts, searches and writes a deep-search report with the app's model", async () => {
    const chartsDir = join(cwd, "live-charts");
    const result = await finance([question], chartsDir);
    expect(result.stderr).not.toMatch(/^error:/m);
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(
      /^## Answer\n\nNVDA returned [+-]\d+\.\d{2}% from 2024-01-\d{2} to 2024-12-\d{2} \(close /,
    );
    expect(result.stdout).toMatch(/^NVDA, 2024-01-\d{2} to 2024-12-\d{2} \(USD\):$/m);
    expect(result.stdout).toMatch(/- Performance: [+-]\d+\.\d{2}%, close \d+\.\d{2} -> \d+\.\d{2}/);
    expect(result.stdout).toContain("## Charts");
    expect(result.stdout).toMatch(/## Deep-search report\n\n# I\. Planning\n1\. /);
    expect(result.stdout).toContain("# II. Results");
    // The report ends with the numbered URLs it used, and its chapters cite them.
    const [chapters = "", sources = ""] = result.stdout.split("# III. Sources\n");
    const urls = sources.trim().split("\n");
    expect(urls.length).toBeGreaterThan(0);
    urls.forEach((line, index) => {
      expect(line).toMatch(new RegExp(`^${index + 1}\\. https?://\\S+$`));
    });
    const cited = [...chapters.matchAll(/\[(\d+)\]/g)].map((match) => Number(match[1]));
    expect(cited.length).toBeGreaterThan(0);
    expect(cited.every((n) => n >= 1 && n <= urls.length)).toBe(true);
    await expectCharts(chartsDir, result.stdout);

    // The tools reached the fakes: Yahoo for the table and both charts, Tavily for the news and
    // the report's research.
    const charted = services.yahoo.requests.filter((r) => r.path === "/v8/finance/chart/NVDA");
    expect(charted).toHaveLength(3);
    expect(services.tavily.requests.length).toBeGreaterThan(2);
    // Deep search ran its planner, writer and editor on the same model service.
    const systems = services.llm.chatRequests.map(
      (body: OpenAIChatRequestBody) => body.messages.find((m) => m.role === "system")?.content,
    );
    for (const step of [
      "You are a research planner.",
      "You are a research writer.",
      "You are an editor",
    ]) {
      expect(systems.some((text) => typeof text === "string" && text.startsWith(step))).toBe(true);
    }
  });

  it("prints the typed answer, and nothing else, as JSON with --json", async () => {
    const chartsDir = join(cwd, "json-charts");
    const result = await finance([question, "--json"], chartsDir);
    expect(result.code).toBe(0);
    const answer = JSON.parse(result.stdout) as FinanceAnswer;
    expect(Object.keys(answer)).toEqual([
      "report",
      "reportIssues",
      "answer",
      "charts",
      "deepSearchReports",
    ]);
    const report = FinanceReport.parse(answer.report);
    expect(answer.reportIssues).toEqual([]);
    expect(answer.answer).toBe(renderFinanceReport(report));
    expect(report.stocks.map((stock) => [stock.symbol, stock.currency])).toEqual([["NVDA", "USD"]]);
    expect(report.stocks[0]?.from).toMatch(/^2024-01-\d{2}$/);
    expect(report.summary).toContain("The deep-search report covers");
    expect(answer.charts.map((chart) => chart.tool)).toEqual([
      "visualize_stock_data",
      "plot_returns",
    ]);
    expect(answer.deepSearchReports).toHaveLength(1);
    expect(answer.deepSearchReports[0]).toMatch(/^# I\. Planning\n/);
    await expectCharts(chartsDir, result.stdout);
  });

  it("continues a conversation across runs with --thread, and forgets it with --forget", async () => {
    const chartsDir = join(cwd, "thread-charts");
    const first = "How did NVDA do in 2024?";
    expect((await finance([first, "--thread", "talk"], chartsDir)).code).toBe(0);
    expect(existsSync(join(cwd, ".framework", "checkpoints.sqlite"))).toBe(true);
    const second = await finance(["And AAPL in 2023?", "--thread", "talk"], chartsDir);
    expect(second.code).toBe(0);
    expect(second.stdout).toMatch(/^## Answer\n\nAAPL returned /);
    expect(askedBefore("And AAPL in 2023?")).toEqual([first, "And AAPL in 2023?"]);

    const forgotten = await finance(["--thread", "talk", "--forget"], chartsDir);
    expect(forgotten.stdout).toMatch(/^thread talk deleted from .+checkpoints\.sqlite\n$/);
    expect((await finance(["And MSFT in 2023?", "--thread", "talk"], chartsDir)).code).toBe(0);
    expect(askedBefore("And MSFT in 2023?")).toEqual(["And MSFT in 2023?"]);
  });

  it("exits non-zero with one clear line when the model service rejects the key", async () => {
    const result = await finance([question], join(cwd, "unused"), {
      ...services.environment,
      LLM_API_KEY: "wrong",
    });
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/^error: the model service rejected the API key \(HTTP 401\)/m);
  });
});

describe("pnpm finance, against a model that answers in prose", () => {
  let prose: FakeServices;
  beforeAll(async () => {
    prose = await startFakeServices({ analyst: financeAnalyst, answersInProse: true });
  });
  afterAll(() => prose.close());

  const unstructured =
    "Unstructured report: the model's answer did not match the structure asked for (The answer is not valid JSON), so it is shown as the model wrote it.";
  const nvda = "How did NVDA do in 2024? Chart it.";

  it("prints the model's text as the answer, says it is unstructured, lists the charts, and exits 0", async () => {
    const chartsDir = join(cwd, "prose-charts");
    const result = await finance([nvda], chartsDir, prose.environment);
    expect(result.stderr).not.toMatch(/^error:/m);
    expect(result.code).toBe(0);
    expect(
      result.stdout.startsWith(`## Answer\n\n${unstructured}\n\nSummary: NVDA returned `),
    ).toBe(true);
    expect(result.stdout).toMatch(/^Stocks: symbol NVDA, from 2024-01-\d{2}, to 2024-12-\d{2}/m);
    expect(result.stderr).toContain(`finance WARN ${unstructured}`);
    // What the run's tools did is kept though the answer is text.
    await expectCharts(chartsDir, result.stdout);
  });

  it("prints report null with the issues, the text as answer, and the charts with --json", async () => {
    const result = await finance(
      [nvda, "--json"],
      join(cwd, "prose-json-charts"),
      prose.environment,
    );
    expect(result.code).toBe(0);
    const answer = JSON.parse(result.stdout) as FinanceAnswer;
    expect(answer.report).toBeNull();
    expect(answer.reportIssues).toEqual([
      { path: "(output)", message: "The answer is not valid JSON." },
    ]);
    expect(answer.answer).toMatch(/^Summary: NVDA returned [+-]\d+\.\d{2}%/);
    expect(answer.charts.map((chart) => chart.tool)).toEqual([
      "visualize_stock_data",
      "plot_returns",
    ]);
  });

  it("continues the thread from the prose answer", async () => {
    const chartsDir = join(cwd, "prose-thread-charts");
    expect((await finance([nvda, "--thread", "prose"], chartsDir, prose.environment)).code).toBe(0);
    const next = await finance(
      ["And AAPL in 2023?", "--thread", "prose"],
      chartsDir,
      prose.environment,
    );
    expect(next.code).toBe(0);
    const request = prose.llm.chatRequests.find((body) =>
      body.messages.some((m) => m.content === "And AAPL in 2023?"),
    );
    const earlier = request?.messages.filter((m) => m.role === "assistant" && !m.tool_calls);
    expect(String(earlier?.at(-1)?.content)).toMatch(/^Summary: NVDA returned /);
  });
});

describe("pnpm finance --offline", () => {
  it("piped, prints the sample-data headline first and the answer, on stderr only the thread", async () => {
    const chartsDir = join(cwd, "offline-quiet-charts");
    const result = await finance(["--offline"], chartsDir, {});
    expect(result.code).toBe(0);
    const [headline, ...answer] = result.stdout.split("\n");
    expect(headline).toBe(sampleDataHeadline);
    expect(answer.join("\n").trimStart()).toMatch(/^## Answer\n/);
    expect(result.stderr).toMatch(
      /^thread [0-9a-f-]{36} \(continue it with --thread [0-9a-f-]{36}\)\n$/,
    );
    // Each chart drawn from the fakes' sample prices says so under its title.
    for (const page of (await readdir(chartsDir)).filter((file) => file.endsWith(".html"))) {
      expect(await readFile(join(chartsDir, page), "utf8")).toContain(
        '"subtext":"sample data, not market prices"',
      );
    }
  });

  it("runs the agent on in-process fakes and a scripted model, writing real charts", async () => {
    const chartsDir = join(cwd, "offline-charts");
    const result = await finance(["--offline", "--verbose"], chartsDir, {});
    expect(result.code).toBe(0);
    expect(result.stdout.split("\n")[0]).toBe(sampleDataHeadline);
    expect(result.stderr).toMatch(/^A scripted model stands in for the LLM/m);
    for (const tool of [
      "fetch_stock_data",
      "visualize_stock_data",
      "plot_returns",
      "search_api",
      "deepsearch_tool",
    ]) {
      expect(result.stderr).toContain(`finance → ${tool} {`);
    }
    // Each deep-search step shows as it happens, from the workflow's typed events.
    for (const step of [
      /deep-search outline of 2 chapters: /,
      /deep-search chapter 1 ".+" of 2: searching \d+ quer/,
      /deep-search searched ".+": \d+ results?/,
      /deep-search writing chapter 1 ".+" from \d+ notes?/,
      /deep-search critiquing the draft/,
      /deep-search revising: searching 1 query from the critique/,
    ]) {
      expect(result.stderr).toMatch(step);
    }
    await expectCharts(chartsDir, result.stdout);
  });

  it("reads the question's ticker and dates, and says plainly when it cannot", async () => {
    const chartsDir = join(cwd, "offline-asked-charts");
    const asked = await finance(
      ["--offline", "How did AAPL do from March 2023 to June 2023?"],
      chartsDir,
      {},
    );
    expect(asked.code).toBe(0);
    expect(asked.stdout).toMatch(/^AAPL, 2023-03-0\d to 2023-06-30 \(USD\):$/m);
    expect(asked.stdout).not.toContain("NVDA");

    const unknown = await finance(["--offline", "What is the capital of France?"], chartsDir, {});
    expect(unknown.code).toBe(0);
    expect(unknown.stdout).toContain(
      "The offline demo's scripted model only knows its sample questions, and this question names no stock ticker it can look up.",
    );
    expect(unknown.stdout).toContain("No chart was drawn.");
  });

  it("says so in a valid typed answer with --offline --json when the question names no ticker", async () => {
    const chartsDir = join(cwd, "offline-unknown-json-charts");
    const result = await finance(
      ["--offline", "--json", "What is the capital of France?"],
      chartsDir,
      {},
    );
    expect(result.code).toBe(0);
    const answer = JSON.parse(result.stdout) as FinanceAnswer;
    const report = FinanceReport.parse(answer.report);
    expect(report.summary).toContain(
      "The offline demo's scripted model only knows its sample questions",
    );
    expect(report.stocks).toEqual([]);
    expect(answer.charts).toEqual([]);
  });

  it("prints a valid typed answer with --offline --json", async () => {
    const result = await finance(["--offline", "--json"], join(cwd, "offline-json-charts"), {});
    expect(result.code).toBe(0);
    const answer = JSON.parse(result.stdout) as FinanceAnswer;
    expect(FinanceReport.safeParse(answer.report).success).toBe(true);
    expect(answer.charts).toHaveLength(2);
  });
});

/** The user messages of the model's latest request whose last one is `question`. */
function askedBefore(question: string): string[] {
  const request = services.llm.chatRequests.findLast(
    (body) => body.messages.findLast((m) => m.role === "user")?.content === question,
  );
  if (!request) throw new Error(`no request asking "${question}"`);
  return request.messages.filter((m) => m.role === "user").map((m) => String(m.content));
}
