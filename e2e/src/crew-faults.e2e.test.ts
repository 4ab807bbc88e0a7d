import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { AbortedError, ModelCallError, OpenAIChatModel } from "@framework/core";
import { NodeExecutionError } from "@framework/graph";
import {
  createCapturingLogger,
  type FakeLLMServer,
  llmHangFault,
  llmServerErrorFault,
  ReliabilityTally,
  startFakeLLMServer,
  testLlmApiKey,
} from "@framework/testing";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { abortListeners, activeTimers, settleEventLoop } from "./support/event-loop-leaks.js";
import { buildInsightCrew, type InsightModels } from "./support/insight-crew.js";
import { RecordingChatModel } from "./support/recording-chat-model.js";
import { waitUntil } from "./support/wait-until.js";

// Crews under failure, through the real client and fake LLM servers (one per node, so each
// node's faults are its own): a node that fails while its siblings run, and a run cancelled
// from outside. Each time the running nodes must be cancelled through their signal, the
// checkpoint must hold the last good state, and the resumed run must finish without running
// the finished nodes again.
const tally = new ReliabilityTally("crew-faults");
type NodeName = keyof InsightModels;
const nodeNames: NodeName[] = ["news", "market", "crypto", "recommender"];
const answers: Record<NodeName, string> = {
  news: "News: calm markets.",
  market: "AAPL looks bullish.",
  crypto: "BTC is up 4%.",
  recommender: "Hold 70% equities, 30% BTC.",
};

let dir: string;
let servers: Record<NodeName, FakeLLMServer>;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "e2e-crew-faults-"));
});
afterEach(async () => {
  await Promise.all(Object.values(servers).map((server) => server.close()));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
  await tally.flush();
});

async function startServers(): Promise<void> {
  const started = await Promise.all(
    nodeNames.map((name) =>
      startFakeLLMServer({ apiKey: testLlmApiKey, defaultReply: answers[name] }),
    ),
  );
  servers = Object.fromEntries(nodeNames.map((name, i) => [name, started[i]])) as typeof servers;
}

function modelOf(name: NodeName): OpenAIChatModel {
  return new OpenAIChatModel({
    baseURL: servers[name].baseURL,
    apiKey: testLlmApiKey,
    model: `${name}-model`,
    maxRetries: 1,
    retryBaseDelayMs: 1,
    timeoutMs: 60_000,
  });
}

const requestsTo = (name: NodeName) => servers[name].chatRequests.length;

describe("a crew whose node fails while its siblings run", () => {
  it("cancels the siblings, keeps the last good state, and resumes without re-running news", async () => {
    await tally.trial(3, async () => {
      await startServers();
      // market hangs until cancelled; crypto fails (HTTP 500 twice, retries used up) once
      // market is waiting and news has finished and been checkpointed.
      servers.market.injectFaults(llmHangFault());
      servers.crypto.injectFaults(llmServerErrorFault(500), llmServerErrorFault(500));
      const logger = createCapturingLogger();
      const market = new RecordingChatModel(modelOf("market"));
      let crew: ReturnType<typeof buildInsightCrew>["crew"] | undefined;
      const crypto = new RecordingChatModel(modelOf("crypto"), async () => {
        await waitUntil(async () => {
          const saved = crew ? (await crew.getState({ threadId: "t1" })).values : undefined;
          return requestsTo("market") > 0 && saved?.news_insight !== undefined;
        });
      });
      const built = buildInsightCrew(
        { news: modelOf("news"), market, crypto, recommender: modelOf("recommender") },
        dir,
        logger,
      );
      crew = built.crew;
      await built.ready;

      const failure = await crew.invoke("How should I allocate?", { threadId: "t1" }).then(
        () => undefined,
        (error: unknown) => error,
      );
      expect(NodeExecutionError.isInstance(failure), String(failure)).toBe(true);
      expect(failure).toMatchObject({ node: "crypto" });
      const cause = (failure as NodeExecutionError).cause;
      expect(ModelCallError.isInstance(cause) && cause.statusCode).toBe(500);
      // The sibling still waiting for its model was cancelled through its signal (the run
      // rejects at once; the cancelled call settles right after).
      expect(market.calls[0]?.signal?.aborted).toBe(true);
      await waitUntil(() => market.calls[0]?.outcome !== "pending");
      expect(market.calls[0]?.outcome).toBe("rejected");
      expect(AbortedError.isInstance(market.calls[0]?.error)).toBe(true);

      const stopped = await crew.getState({ threadId: "t1" });
      expect(stopped.status).toBe("failed");
      expect(stopped.error).toMatchObject({ name: "NodeExecutionError", node: "crypto" });
      expect(stopped.values).toMatchObject({ news_insight: answers.news });
      expect(stopped.values.equity_insight).toBeUndefined();
      expect(stopped.values.crypto_insight).toBeUndefined();
      expect(stopped.values.messages.map((m) => m.role)).toEqual(["user", "news"]);
      expect(stopped.next).toEqual(expect.arrayContaining(["market", "crypto"]));
      expect(stopped.next).not.toContain("news");

      const final = await crew.resume({ threadId: "t1" });
      expect(final).toMatchObject({
        news_insight: answers.news,
        equity_insight: answers.market,
        crypto_insight: answers.crypto,
        final_recommendation: answers.recommender,
      });
      expect(final.messages.map((m) => m.role).sort()).toEqual(
        ["crypto", "market", "news", "recommender", "user"].sort(),
      );
      expect(requestsTo("news")).toBe(1);
      expect(requestsTo("market")).toBe(2);
      expect(requestsTo("crypto")).toBe(3);
      expect(requestsTo("recommender")).toBe(1);
      expect((await crew.getState({ threadId: "t1" })).status).toBe("done");
    });
  });
});

describe("a crew run cancelled from outside", () => {
  it("stops every running node, saves the run as cancelled, and resumes it later", async () => {
    await tally.trial(3, async () => {
      await startServers();
      await settleEventLoop();
      const timersBefore = activeTimers();
      for (const name of ["news", "market", "crypto"] as const) {
        servers[name].injectFaults(llmHangFault());
      }
      const models = {
        news: new RecordingChatModel(modelOf("news")),
        market: new RecordingChatModel(modelOf("market")),
        crypto: new RecordingChatModel(modelOf("crypto")),
        recommender: new RecordingChatModel(modelOf("recommender")),
      };
      const { crew, ready } = buildInsightCrew(models, dir, createCapturingLogger());
      await ready;
      const controller = new AbortController();
      const run = crew.invoke("How should I allocate?", {
        threadId: "t2",
        signal: controller.signal,
      });
      await waitUntil(() => ["news", "market", "crypto"].every((n) => requestsTo(n as NodeName)));
      controller.abort();
      await expect(run).rejects.toSatisfy(AbortedError.isInstance);

      for (const name of ["news", "market", "crypto"] as const) {
        const [call] = models[name].calls;
        expect(call?.signal?.aborted, name).toBe(true);
        await waitUntil(() => call?.outcome !== "pending");
        expect(AbortedError.isInstance(call?.error), name).toBe(true);
      }
      expect(models.recommender.calls).toHaveLength(0);
      const stopped = await crew.getState({ threadId: "t2" });
      expect(stopped.status).toBe("cancelled");
      expect([...stopped.next].sort()).toEqual(["crypto", "market", "news"]);

      const final = await crew.resume({ threadId: "t2" });
      expect(final.final_recommendation).toBe(answers.recommender);
      for (const name of ["news", "market", "crypto"] as const) expect(requestsTo(name)).toBe(2);
      expect(requestsTo("recommender")).toBe(1);

      await settleEventLoop();
      expect(abortListeners(controller.signal)).toBe(0);
      expect(activeTimers()).toBeLessThanOrEqual(timersBefore);
    });
  });
});
