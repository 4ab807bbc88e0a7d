import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Agent, OpenAIChatModel, primaryFunction, silentLogger } from "@framework/core";
import {
  type FakeLLMServer,
  llmRateLimitFault,
  llmServerErrorFault,
  ReliabilityTally,
  seededRandom,
  startFakeLLMServer,
  testLlmApiKey,
} from "@framework/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";

// A soak: 200 concurrent invokes, twice, against the fake LLM server with random latency and a
// 5% fault rate (HTTP 503, plus a burst of 429s). Retries must absorb every fault, every
// answer must be the right one for its own question, and the heap must come back to about
// where it started. The faults and latencies come from a seeded generator; the seed is in the
// failure message.
const tally = new ReliabilityTally("soak");
const seed = Number(process.env.SOAK_SEED) || Date.now() % 1_000_000;
const random = seededRandom(seed);
const concurrency = 200;
const faultRate = 0.05;

const add = primaryFunction(
  {
    name: "add",
    description: "Add two integers.",
    parameters: z.object({ a: z.number().int(), b: z.number().int() }),
    returns: "int",
  },
  ({ a, b }) => a + b,
);

// The model: asked "add A and B", it calls add; given the tool's result, it answers with it.
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
async function fakeModel(request: {
  messages: Array<{ role: string; content?: unknown }>;
}): Promise<string | { toolCalls: Array<{ name: string; arguments: Record<string, number> }> }> {
  await sleep(Math.floor(random() * 15));
  const last = request.messages.at(-1);
  if (last?.role === "tool") return `The sum is ${String(last.content)}.`;
  const [, a, b] = /add (\d+) and (\d+)/.exec(String(last?.content)) ?? [];
  return { toolCalls: [{ name: "add", arguments: { a: Number(a), b: Number(b) } }] };
}

let server: FakeLLMServer;
let agents: Agent[];
let dir: string;
let rateFaults = 0;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "e2e-soak-"));
  server = await startFakeLLMServer({ apiKey: testLlmApiKey, defaultReply: fakeModel });
  const llm = new OpenAIChatModel({
    baseURL: server.baseURL,
    apiKey: testLlmApiKey,
    model: "soak-model",
    maxRetries: 10,
    retryBaseDelayMs: 1,
    retryMaxDelayMs: 20,
    // Only a hang guard: a timed-out request is retried and would break the exact request count,
    // and a loaded machine can take seconds to serve one.
    timeoutMs: 120_000,
    logger: silentLogger,
  });
  agents = await Promise.all(
    Array.from({ length: 4 }, () =>
      Agent.create({
        description: "You add numbers with the add tool.",
        llm,
        tools: [add],
        toolsPath: join(dir, "tools.json"),
        cwd: dir,
        logger: silentLogger,
      }),
    ),
  );
});
afterAll(async () => {
  await server.close();
  await rm(dir, { recursive: true, force: true });
  await tally.flush();
});

/** Runs `count` invokes at once, spread over the agents; returns how many answered right. */
async function wave(count: number, offset: number): Promise<number> {
  const results = await Promise.all(
    Array.from({ length: count }, async (_, i) => {
      const a = offset + i;
      const b = 1_000 + i * 7;
      const agent = agents[i % agents.length] as Agent;
      const result = await agent.invoke(`Please add ${a} and ${b}.`);
      return result.content === `The sum is ${a + b}.` && result.iterations === 2;
    }),
  );
  return results.filter(Boolean).length;
}

async function heapAfterGc(): Promise<number> {
  for (let i = 0; i < 3; i++) {
    globalThis.gc?.();
    await new Promise((resolve) => setImmediate(resolve));
  }
  return process.memoryUsage().heapUsed;
}

describe(`a soak of ${concurrency} concurrent invokes (seed ${seed})`, () => {
  it("answers every one correctly through faults, twice, and gives the heap back", async () => {
    expect(typeof globalThis.gc, "run with --expose-gc (e2e/vitest.config.ts)").toBe("function");
    // Warm-up at full concurrency: the first invokes load code, and open the connections the
    // HTTP client keeps alive for reuse, which stay and are not a leak.
    expect(await wave(concurrency, 0)).toBe(concurrency);
    server.requests.length = 0;
    const baseline = await heapAfterGc();
    // Counts the faults the server really serves: each draw under the rate is one.
    server.setFaultRate(faultRate, llmServerErrorFault(503), () => {
      const draw = random();
      if (draw < faultRate) rateFaults += 1;
      return draw;
    });

    server.injectFaults(
      ...Array.from({ length: 10 }, () => llmRateLimitFault({ retryAfterMs: 1 })),
    );
    const injectedBurst = 10;
    const correct = [await wave(concurrency, 10_000), await wave(concurrency, 20_000)];
    const faults = rateFaults + injectedBurst;
    tally.injected(faults);
    expect(correct, `seed ${seed}`).toEqual([concurrency, concurrency]);
    expect(rateFaults, `seed ${seed}: the fault rate produced no faults`).toBeGreaterThan(0);
    // Two model calls per invoke, plus one retry per fault.
    expect(server.requests.length).toBe(2 * 2 * concurrency + faults);
    tally.survived(faults);

    server.requests.length = 0;
    const after = await heapAfterGc();
    const grownMb = (after - baseline) / 1024 / 1024;
    // About 2 MB remains however many waves run (allocator and JIT noise, measured). Keeping
    // 20 KB per run, such as a response with its buffers, would exceed 8 MB over 400 runs.
    expect(grownMb, `heap grew ${grownMb.toFixed(1)} MB (seed ${seed})`).toBeLessThan(8);
  }, 300_000);
});
