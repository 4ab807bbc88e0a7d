import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Agent, silentLogger } from "@framework/core";
import { apiKeyAuth, createServer } from "@framework/server";
import { MockChatModel } from "@framework/testing";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { chromiumPath, launchChromium, screenshot, seriousViolations } from "./studio-browser.js";
import { type StudioServer, startStudioServer } from "./studio-server.js";

const executablePath = chromiumPath();
if (!executablePath && process.env.CI === "true") {
  throw new Error(
    "chromium is missing: the studio's browser tests need Debian's chromium (scripts/services.sh start installs it)",
  );
}
if (!executablePath) {
  console.warn(
    "skipping the studio's browser tests: no chromium (run scripts/services.sh start as root, or set FRAMEWORK_CHROMIUM)",
  );
}

/** The text of the element the keyboard is on (evaluated in the page). */
const focusedText = (page: Page) =>
  page.evaluate<string | null>("document.activeElement?.textContent ?? null");

/** Waits long enough for a loaded machine; the test's own timeout still bounds every step. */
const patient = { timeout: 60_000 };

describe.skipIf(!executablePath)(
  "the studio in a real browser, against pnpm studio --offline",
  () => {
    let browser: Browser;
    let server: StudioServer;
    let page: Page;
    /** What the page logged as errors (a script or style its policy blocked shows here). */
    const consoleErrors: string[] = [];

    beforeAll(async () => {
      [browser, server] = await Promise.all([launchChromium(executablePath!), startStudioServer()]);
      page = await (await browser.newContext({ viewport: { width: 1280, height: 800 } })).newPage();
      page.setDefaultTimeout(patient.timeout);
      page.on("console", (message) => {
        if (message.type() === "error") consoleErrors.push(message.text());
      });
      page.on("pageerror", (error) => consoleErrors.push(error.message));
    });
    afterAll(async () => {
      await browser?.close();
      await server?.close();
    });

    async function open(view: string) {
      await page
        .getByRole("navigation", { name: "Studio" })
        .getByRole("link", { name: view })
        .click();
      await expect
        .poll(() => page.getByRole("link", { name: view }).getAttribute("aria-current"), patient)
        .toBe("page");
    }

    it("opens on the assistants, loading nothing from another origin", async () => {
      const foreign: string[] = [];
      page.on("request", (request) => {
        if (!request.url().startsWith(new URL(server.studioURL).origin))
          foreign.push(request.url());
      });
      await page.goto(server.studioURL);
      const list = page.getByRole("region", { name: "Assistants" });
      for (const name of ["research", "finance", "advisory"]) {
        await list.getByRole("button", { name: new RegExp(name) }).waitFor();
      }
      await page.locator(".react-flow__node").first().waitFor();
      expect(foreign).toEqual([]);
      expect(await seriousViolations(page)).toEqual([]);
      await screenshot(page, "01-assistants");
    });

    it("chats with the research agent: streamed text and a tool call with its arguments", async () => {
      await open("Chat");
      await page.getByLabel("Assistant").selectOption({ label: "research (agent)" });
      await page.getByLabel("Message").fill("Find recent papers on retrieval-augmented generation");
      await page.getByRole("button", { name: "Send" }).click();
      const tool = page.locator('.message-tool[data-tool="paper_research"]');
      await tool.waitFor();
      await page.locator(".message-assistant").filter({ hasText: "Here are" }).waitFor();
      await page.getByRole("button", { name: "Send" }).waitFor();
      await page.getByRole("link", { name: "See its trace" }).waitFor();
      await tool.locator("summary").first().click();
      await expect.poll(() => tool.textContent(), patient).toContain("Arguments");
      expect(await tool.textContent()).toContain("topic");
      // The offline researcher reasons as a reasoning model: its thinking folds before the answer.
      const reasoning = page.locator(".message-note").filter({ hasText: "Reasoning" });
      await reasoning.locator("summary").click();
      await expect
        .poll(() => reasoning.textContent(), patient)
        .toContain("point to the closest match first");
      const order = await page
        .locator(".message-note, .message-assistant")
        .evaluateAll((items) => items.map((item) => item.className));
      expect(order.findIndex((name) => name.includes("message-note"))).toBeLessThan(
        order.findIndex((name) => name.includes("message-assistant")),
      );
      expect(await seriousViolations(page)).toEqual([]);
      await screenshot(page, "02-chat-research");
    });

    it("runs the advisory crew: both analysts light up before the recommender", async () => {
      await open("Assistants");
      await page.getByRole("button", { name: /advisory/ }).click();
      await page.locator('.react-flow__node[data-id="recommender"]').waitFor();
      await page.getByLabel("Run with a message").fill("Compare Apple and Bitcoin for me");
      await page.getByRole("button", { name: "Run", exact: true }).click();
      // Offline, the market analyst's web search asks first: the run waits on an approval.
      await page.getByRole("status").filter({ hasText: "Waiting for an answer" }).waitFor();
      const log = await page
        .locator(".activity-log li")
        .evaluateAll((items) => items.map((item) => `${item.dataset.node} ${item.dataset.what}`));
      const at = (entry: string) => log.indexOf(entry);
      expect(at("market started")).toBeGreaterThanOrEqual(0);
      expect(at("crypto started")).toBeGreaterThanOrEqual(0);
      // Both started before either finished: they ran at once.
      const firstFinish = Math.min(
        ...log.flatMap((entry, index) => (entry.endsWith("finished") ? [index] : [])),
      );
      expect(Math.max(at("market started"), at("crypto started"))).toBeLessThan(firstFinish);
      expect(at("recommender started")).toBe(-1);
      const lit = await page
        .locator(".react-flow__node.is-waiting, .react-flow__node.is-done")
        .evaluateAll((nodes) => nodes.map((node) => node.dataset.id).sort());
      expect(lit).toEqual(["crypto", "market"]);
      expect(await seriousViolations(page)).toEqual([]);
      await screenshot(page, "03-advisory-graph");
    });

    it("approves the tool call from the inbox with the keyboard alone, and the run finishes", async () => {
      // A fresh page, then only keys: the skip link, then the navigation.
      await page.goto(server.studioURL);
      await page.getByRole("navigation", { name: "Studio" }).waitFor();
      for (let i = 0; i < 8; i += 1) {
        await page.keyboard.press("Tab");
        if ((await focusedText(page)) === "Approvals") break;
      }
      await page.keyboard.press("Enter");
      const card = page.getByRole("article", { name: "Approve search_api" });
      await card.waitFor();
      expect(await card.textContent()).toContain("AAPL");
      expect(await seriousViolations(page)).toEqual([]);
      await screenshot(page, "04-approvals-inbox");
      for (let i = 0; i < 40; i += 1) {
        await page.keyboard.press("Tab");
        if ((await focusedText(page)) === "Approve") break;
      }
      expect(await focusedText(page)).toBe("Approve");
      await page.keyboard.press("Enter");
      await page.getByRole("status").filter({ hasText: "Run finished" }).waitFor();
      const log = await page
        .locator(".activity-log li")
        .evaluateAll((items) => items.map((item) => `${item.dataset.node} ${item.dataset.what}`));
      expect(log).toEqual(expect.arrayContaining(["recommender started", "recommender finished"]));
      await page.getByText("Nothing is waiting on you.").waitFor();
      await screenshot(page, "05-approvals-answered");
    });

    it("picks a checkpoint of the research thread, forks from it, and shows a second branch", async () => {
      await open("Threads");
      const threads = page.getByRole("region", { name: "Threads" }).getByRole("button");
      await threads.first().waitFor();
      // Newest first: the crew's thread, then the research chat's.
      await threads.nth(1).click();
      const timeline = page.getByRole("list", { name: "Checkpoints, oldest first" });
      await timeline.getByRole("button").nth(1).waitFor();
      expect(await timeline.getAttribute("data-branches")).toBe("1");
      // The first checkpoint: the question asked, before the agent answered it.
      await timeline.getByRole("button").first().click();
      await page.locator(".checkpoint-detail .json-tree").waitFor();
      await page
        .getByLabel("Run from here, with a message (optional)")
        .fill("And on vector databases?");
      await page.getByRole("button", { name: "Run from here" }).click();
      await expect.poll(() => timeline.getAttribute("data-branches"), patient).toBe("2");
      await page.locator('.timeline button[data-branch="1"]').last().click();
      expect(await page.locator(".checkpoint-detail .json-changed").count()).toBeGreaterThan(0);
      expect(await seriousViolations(page)).toEqual([]);
      await screenshot(page, "06-threads-fork");
    });

    it("draws a run's spans as a waterfall with durations and token usage", async () => {
      await open("Traces");
      const waterfall = page.locator("table.waterfall");
      await waterfall.waitFor();
      await page.getByRole("region", { name: "Traces" }).getByRole("button").first().waitFor();
      const names = await waterfall.locator("tbody th").allTextContents();
      expect(names[0]).toMatch(/^graph_run/);
      expect(names.some((name) => name.startsWith("chat"))).toBe(true);
      expect(await page.getByText(/tokens: [1-9]\d* in/).count()).toBe(1);
      expect(await seriousViolations(page)).toEqual([]);
      await screenshot(page, "07-traces");
      // Through every step: nothing the page's policy blocked, no uncaught error.
      expect(consoleErrors).toEqual([]);
    });
  },
);

describe.skipIf(!executablePath)("the studio of a server that needs a token", () => {
  it("asks for a token, refuses a wrong one, keeps the right one in session storage only", async () => {
    const directory = mkdtempSync(join(tmpdir(), "framework-studio-auth-"));
    const server = createServer({
      agents: {
        greeter: new Agent({
          description: "You greet people.",
          llm: new MockChatModel(["Hello!"]),
          toolsPath: false,
          logger: silentLogger,
        }),
      },
      auth: apiKeyAuth({ keys: { "studio-e2e-key": "ann" } }),
      databasePath: join(directory, "server.sqlite"),
      logger: silentLogger,
      studio: true,
    });
    const browser = await launchChromium(executablePath!);
    try {
      const { studioURL } = await server.listen({ port: 0 });
      const page = await (await browser.newContext()).newPage();
      page.setDefaultTimeout(patient.timeout);
      await page.goto(studioURL!);
      await page.getByRole("heading", { name: "This server needs a token" }).waitFor();
      expect(await page.getByRole("button", { name: /greeter/ }).count()).toBe(0);
      expect(await seriousViolations(page)).toEqual([]);

      await page.getByLabel("Token", { exact: true }).fill("not-the-key");
      await page.getByRole("button", { name: "Use this token" }).click();
      await page.getByText("The server did not accept this token.").waitFor();

      await page.getByLabel("Token", { exact: true }).fill("studio-e2e-key");
      await page.getByRole("button", { name: "Use this token" }).click();
      await page.getByRole("button", { name: /greeter/ }).waitFor();
      expect(await page.evaluate("sessionStorage.getItem('framework-studio-token')")).toBe(
        "studio-e2e-key",
      );
      expect(page.url()).not.toContain("studio-e2e-key");
      await screenshot(page, "08-token-accepted");
    } finally {
      await browser.close();
      await server.close();
      rmSync(directory, { recursive: true, force: true });
    }
  });
});
