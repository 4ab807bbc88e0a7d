import { afterEach, describe, expect, it, vi } from "vitest";
import { AbortedError } from "../error/aborted-error.js";
import type { Logger } from "../log/logger.js";
import {
  abortableDelay,
  backoffDelayMs,
  parseRetryAfter,
  type RetryPolicy,
  retryWithBackoff,
} from "./retry.js";

function capturingLogger(): { logger: Logger; warnings: string[] } {
  const warnings: string[] = [];
  const ignore = () => {};
  return {
    warnings,
    logger: { debug: ignore, info: ignore, error: ignore, warn: (line) => warnings.push(line) },
  };
}

function policy(overrides: Partial<RetryPolicy> & Pick<RetryPolicy, "logger">): RetryPolicy {
  return {
    maxRetries: 3,
    baseDelayMs: 1000,
    maxDelayMs: 30_000,
    shouldRetry: () => ({ reason: "HTTP 503" }),
    path: "/chat/completions",
    operation: "chat completion",
    ...overrides,
  };
}

afterEach(() => {
  vi.useRealTimers();
});

describe("parseRetryAfter", () => {
  const headers = (init: Record<string, string>) => new Headers(init);

  it("reads seconds", () => {
    expect(parseRetryAfter(headers({ "retry-after": "2" }))).toBe(2000);
    expect(parseRetryAfter(headers({ "retry-after": "0.5" }))).toBe(500);
  });

  it("prefers retry-after-ms", () => {
    expect(parseRetryAfter(headers({ "retry-after": "2", "retry-after-ms": "150" }))).toBe(150);
  });

  it("reads an HTTP date relative to now", () => {
    const now = Date.parse("Wed, 21 Oct 2015 07:28:00 GMT");
    expect(parseRetryAfter(headers({ "retry-after": "Wed, 21 Oct 2015 07:28:03 GMT" }), now)).toBe(
      3000,
    );
    expect(parseRetryAfter(headers({ "retry-after": "Wed, 21 Oct 2015 07:27:00 GMT" }), now)).toBe(
      0,
    );
  });

  it("ignores missing, negative and unreadable values", () => {
    expect(parseRetryAfter(undefined)).toBeUndefined();
    expect(parseRetryAfter(headers({}))).toBeUndefined();
    expect(parseRetryAfter(headers({ "retry-after": "-1" }))).toBeUndefined();
    expect(parseRetryAfter(headers({ "retry-after": "soon" }))).toBeUndefined();
    expect(parseRetryAfter(headers({ "retry-after-ms": "x", "retry-after": "1" }))).toBe(1000);
  });
});

describe("backoffDelayMs", () => {
  it("doubles from the base up to the cap", () => {
    expect([1, 2, 3, 4, 5, 6].map((retry) => backoffDelayMs(retry, 1000, 30_000))).toEqual([
      1000, 2000, 4000, 8000, 16_000, 30_000,
    ]);
  });
});

describe("abortableDelay", () => {
  it("rejects at once, leaving no timer, when the signal fires", async () => {
    vi.useFakeTimers();
    const controller = new AbortController();
    const waiting = abortableDelay(60_000, controller.signal, "chat completion");
    expect(vi.getTimerCount()).toBe(1);
    controller.abort(new Error("stop"));
    await expect(waiting).rejects.toSatisfy(
      (error) => AbortedError.isInstance(error) && error.operation === "chat completion",
    );
    expect(vi.getTimerCount()).toBe(0);
  });

  it("rejects without starting a timer when already aborted", async () => {
    vi.useFakeTimers();
    await expect(abortableDelay(1000, AbortSignal.abort(), "x")).rejects.toSatisfy(
      AbortedError.isInstance,
    );
    expect(vi.getTimerCount()).toBe(0);
  });
});

describe("retryWithBackoff", () => {
  it("retries with growing waits and logs each one", async () => {
    vi.useFakeTimers();
    const { logger, warnings } = capturingLogger();
    let calls = 0;
    const result = retryWithBackoff(async (attempt) => {
      calls++;
      if (attempt < 3) throw new Error("busy");
      return attempt;
    }, policy({ logger }));
    await vi.runAllTimersAsync();
    await expect(result).resolves.toBe(3);
    expect(calls).toBe(3);
    expect(warnings).toEqual([
      "Retrying request to /chat/completions in 1 seconds (attempt 1/3, HTTP 503)",
      "Retrying request to /chat/completions in 2 seconds (attempt 2/3, HTTP 503)",
    ]);
  });

  it("waits what the provider asks, within the cap", async () => {
    vi.useFakeTimers();
    const { logger, warnings } = capturingLogger();
    const retryAfters = [250, 90_000];
    const result = retryWithBackoff(
      async (attempt) => {
        if (attempt < 3) throw new Error("limited");
        return "ok";
      },
      policy({
        logger,
        shouldRetry: () => ({ reason: "HTTP 429", retryAfterMs: retryAfters.shift() ?? 0 }),
      }),
    );
    await vi.runAllTimersAsync();
    await expect(result).resolves.toBe("ok");
    expect(warnings).toEqual([
      "Retrying request to /chat/completions in 0.25 seconds (attempt 1/3, HTTP 429)",
      "Retrying request to /chat/completions in 30 seconds (attempt 2/3, HTTP 429)",
    ]);
  });

  it("rethrows at once when the error is not retryable", async () => {
    const { logger, warnings } = capturingLogger();
    const failure = new Error("bad request");
    await expect(
      retryWithBackoff(
        async () => {
          throw failure;
        },
        policy({ logger, shouldRetry: () => undefined }),
      ),
    ).rejects.toBe(failure);
    expect(warnings).toEqual([]);
  });

  it("rethrows the last error once the retries are used up", async () => {
    const { logger, warnings } = capturingLogger();
    let calls = 0;
    await expect(
      retryWithBackoff(
        async (attempt) => {
          calls++;
          throw new Error(`failure ${attempt}`);
        },
        policy({ logger, maxRetries: 2, baseDelayMs: 0 }),
      ),
    ).rejects.toThrow("failure 3");
    expect(calls).toBe(3);
    expect(warnings).toHaveLength(2);
  });

  it("ends a wait with AbortedError when the signal fires, leaving no timer", async () => {
    vi.useFakeTimers();
    const controller = new AbortController();
    const { logger } = capturingLogger();
    let calls = 0;
    const result = retryWithBackoff(
      async () => {
        calls++;
        throw new Error("busy");
      },
      policy({ logger, signal: controller.signal }),
    );
    await vi.advanceTimersByTimeAsync(10);
    controller.abort();
    await expect(result).rejects.toSatisfy(AbortedError.isInstance);
    expect(calls).toBe(1);
    expect(vi.getTimerCount()).toBe(0);
  });
});
