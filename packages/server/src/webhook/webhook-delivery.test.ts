import type { Logger } from "@framework/core";
import { describe, expect, it } from "vitest";
import { InProcessWebhookDelivery, retryDelayMs, type WebhookOutcome } from "./webhook-delivery.js";
import { retryAfterMs, type WebhookAttempt, type WebhookMessage } from "./webhook-sender.js";

const message: WebhookMessage = {
  id: "msg_1",
  url: "https://hooks.example.com/ended?token=query-secret",
  body: "{}",
  runId: "run-1",
};

function recordingLogger(): Logger & { lines: string[] } {
  const lines: string[] = [];
  const line = (level: string) => (text: string) => lines.push(`${level} ${text}`);
  return {
    lines,
    debug: line("debug"),
    info: line("info"),
    warn: line("warn"),
    error: line("error"),
  };
}

/** Delivers `message` with attempts answered in turn by `answers`; resolves when it ended. */
async function deliverWith(answers: WebhookAttempt[], maxAttempts = 4) {
  const logger = recordingLogger();
  const sent: WebhookMessage[] = [];
  let outcome: WebhookOutcome | undefined;
  let done!: () => void;
  const ended = new Promise<void>((resolve) => (done = resolve));
  const delivery = new InProcessWebhookDelivery({
    send: async (sending) => {
      sent.push(sending);
      return answers[sent.length - 1]!;
    },
    maxAttempts,
    retryDelayMs: 1,
    maxRetryDelayMs: 5,
    logger,
    ended: (result) => {
      outcome = result;
      done();
    },
  });
  await delivery.deliver(message);
  await ended;
  await delivery.close();
  return { sent, outcome, lines: logger.lines };
}

describe("in-process webhook delivery", () => {
  it("retries network errors, timeouts, 429 and 5xx with the same id until delivered", async () => {
    const { sent, outcome, lines } = await deliverWith([
      { outcome: "retry", reason: "Error: connect ECONNREFUSED" },
      { outcome: "retry", reason: "answered 429", retryAfterMs: 0 },
      { outcome: "retry", reason: "answered 503" },
      { outcome: "delivered", status: 204 },
    ]);
    expect(sent).toHaveLength(4);
    expect(new Set(sent.map((each) => each.id))).toEqual(new Set(["msg_1"]));
    expect(outcome).toBe("delivered");
    expect(lines).toHaveLength(4);
    expect(lines[0]).toMatch(/^info .*attempt 1 of 4 Error: connect ECONNREFUSED; retrying/);
    expect(lines[3]).toMatch(/^info .*attempt 4 of 4 delivered \(204\)/);
    // The URL is logged without its query string.
    expect(lines.join("\n")).not.toContain("query-secret");
  });

  it("does not retry another answer, and warns it was not delivered", async () => {
    const { sent, outcome, lines } = await deliverWith([
      { outcome: "failed", reason: "answered 400" },
    ]);
    expect(sent).toHaveLength(1);
    expect(outcome).toBe("failed");
    expect(lines).toEqual([expect.stringMatching(/^warn .*answered 400; not delivered$/)]);
  });

  it("gives up after maxAttempts and warns", async () => {
    const { sent, outcome, lines } = await deliverWith(
      Array.from({ length: 3 }, () => ({ outcome: "retry" as const, reason: "answered 502" })),
      3,
    );
    expect(sent).toHaveLength(3);
    expect(outcome).toBe("failed");
    expect(lines.at(-1)).toMatch(/^warn .*attempt 3 of 3 answered 502; not delivered$/);
  });

  it("drops a retry not yet due when it closes", async () => {
    const logger = recordingLogger();
    const outcomes: WebhookOutcome[] = [];
    let attempts = 0;
    const delivery = new InProcessWebhookDelivery({
      send: async () => {
        attempts++;
        return { outcome: "retry", reason: "answered 503" };
      },
      maxAttempts: 5,
      retryDelayMs: 60_000,
      maxRetryDelayMs: 60_000,
      logger,
      ended: (outcome) => outcomes.push(outcome),
    });
    await delivery.deliver(message);
    await delivery.close();
    expect(attempts).toBe(1);
    expect(outcomes).toEqual(["failed"]);
    expect(logger.lines.at(-1)).toMatch(/^warn .*the server closed before attempt 2/);
  });
});

describe("retry waits", () => {
  const options = { retryDelayMs: 1_000, maxRetryDelayMs: 60_000 };

  it("doubles per retry with equal jitter, up to the maximum", () => {
    expect(retryDelayMs(1, undefined, options, () => 0)).toBe(500);
    expect(retryDelayMs(1, undefined, options, () => 1)).toBe(1_000);
    expect(retryDelayMs(3, undefined, options, () => 1)).toBe(4_000);
    expect(retryDelayMs(3, undefined, options, () => 0)).toBe(2_000);
    expect(retryDelayMs(20, undefined, options, () => 1)).toBe(60_000);
  });

  it("honours the receiver's Retry-After, up to the maximum", () => {
    expect(retryDelayMs(1, 7_000, options, () => 0)).toBe(7_000);
    expect(retryDelayMs(1, 600_000, options, () => 0)).toBe(60_000);
  });

  it("reads Retry-After as seconds or as an HTTP date", () => {
    const now = Date.parse("2026-01-01T00:00:00Z");
    expect(retryAfterMs("120", now)).toBe(120_000);
    expect(retryAfterMs("Thu, 01 Jan 2026 00:00:30 GMT", now)).toBe(30_000);
    expect(retryAfterMs("Wed, 31 Dec 2025 00:00:00 GMT", now)).toBe(0);
    expect(retryAfterMs("soon", now)).toBeUndefined();
    expect(retryAfterMs(undefined, now)).toBeUndefined();
  });
});
