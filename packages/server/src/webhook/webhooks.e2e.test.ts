import { randomBytes } from "node:crypto";
import { createServer as createHttpServer, type IncomingHttpHeaders, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import type { Logger } from "@framework/core";
import { Client } from "@langchain/langgraph-sdk";
import { Webhook } from "standardwebhooks";
import { afterEach, describe, expect, it } from "vitest";
import type { ServerOptions } from "../create-server.js";
import { startTestServer, type TestServer, twoStepGraph } from "../test-server.js";

interface Received {
  readonly headers: IncomingHttpHeaders;
  readonly body: string;
}

/** A webhook receiver on 127.0.0.1 answering each request in turn with `statuses` (then 200). */
async function startReceiver(statuses: readonly { status: number; retryAfter?: string }[] = []) {
  const received: Received[] = [];
  const waiters: (() => void)[] = [];
  const server: Server = createHttpServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on("data", (chunk: Buffer) => chunks.push(chunk));
    request.on("end", () => {
      const answer = statuses[received.length] ?? { status: 200 };
      received.push({ headers: request.headers, body: Buffer.concat(chunks).toString("utf8") });
      response.writeHead(
        answer.status,
        answer.retryAfter === undefined ? {} : { "retry-after": answer.retryAfter },
      );
      response.end();
      for (const wake of waiters.splice(0)) wake();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    received,
    port,
    url: `http://127.0.0.1:${port}/hooks/run-ended`,
    async waitFor(count: number): Promise<Received[]> {
      while (received.length < count) await new Promise<void>((wake) => waiters.push(wake));
      return received;
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** A logger that keeps its lines, and wakes whoever waits for a line that matches. */
function recordingLogger() {
  const lines: string[] = [];
  const waiters: { pattern: RegExp; wake: (line: string) => void }[] = [];
  const line = (level: string) => (text: string) => {
    const entry = `${level} ${text}`;
    lines.push(entry);
    for (const waiter of [...waiters]) {
      if (waiter.pattern.test(entry)) {
        waiters.splice(waiters.indexOf(waiter), 1);
        waiter.wake(entry);
      }
    }
  };
  const logger: Logger = {
    debug: line("debug"),
    info: line("info"),
    warn: line("warn"),
    error: line("error"),
  };
  return {
    logger,
    lines,
    waitFor(pattern: RegExp): Promise<string> {
      const seen = lines.find((entry) => pattern.test(entry));
      if (seen) return Promise.resolve(seen);
      return new Promise((wake) => waiters.push({ pattern, wake }));
    },
  };
}

const secret = `whsec_${randomBytes(32).toString("base64")}`;
const hello = { messages: [{ role: "user", content: "hello" }] };

let running: TestServer | undefined;
let receiver: Awaited<ReturnType<typeof startReceiver>> | undefined;
afterEach(async () => {
  await running?.close();
  await receiver?.close();
  running = undefined;
  receiver = undefined;
});

async function serve(options: ServerOptions) {
  running = await startTestServer(options);
  return new Client({ apiUrl: running.url });
}

describe("run webhooks", () => {
  it("posts the ended run and its values, signed so that standardwebhooks verifies it", async () => {
    receiver = await startReceiver();
    const log = recordingLogger();
    const client = await serve({
      graphs: { review: twoStepGraph() },
      webhooks: { secret, allowPrivateNetworks: true },
      logger: log.logger,
    });
    const thread = await client.threads.create();
    const run = await client.runs.create(thread.thread_id, "review", {
      input: hello,
      metadata: { purpose: "webhook test" },
      webhook: `${receiver.url}?token=query-token`,
    });
    await client.runs.join(thread.thread_id, run.run_id);
    const [delivered] = await receiver.waitFor(1);
    const headers = delivered!.headers as Record<string, string>;
    expect(headers["webhook-id"]).toMatch(/^msg_/);
    expect(headers["webhook-signature"]).toMatch(/^v1,/);
    const payload = new Webhook(secret).verify(delivered!.body, headers);
    expect(payload).toMatchObject({
      run_id: run.run_id,
      thread_id: thread.thread_id,
      assistant_id: run.assistant_id,
      status: "success",
      metadata: { purpose: "webhook test" },
      values: { draft: "draft for: hello", approved: true },
      created_at: run.created_at,
      run_started_at: expect.any(String),
      run_ended_at: expect.any(String),
    });
    expect(payload).not.toHaveProperty("error");
    // Any change to the body, or another secret, fails verification.
    expect(() => new Webhook(secret).verify(`${delivered!.body} `, headers)).toThrow();
    const other = `whsec_${randomBytes(32).toString("base64")}`;
    expect(() => new Webhook(other).verify(delivered!.body, headers)).toThrow();
    await log.waitFor(/delivered \(200\)/);
    const logged = log.lines.join("\n");
    expect(logged).toContain(`to http://127.0.0.1:${receiver.port}/hooks/run-ended: attempt 1`);
    expect(logged).not.toContain(secret.slice("whsec_".length));
    expect(logged).not.toContain("query-token");
  });

  it("tells of a failed run's error and of a run waiting on an interrupt", async () => {
    receiver = await startReceiver();
    const client = await serve({
      graphs: {
        failing: twoStepGraph({ writeGate: () => Promise.reject(new Error("draft failed")) }),
        asking: twoStepGraph({ askForReview: true }),
      },
      webhooks: { secret, allowPrivateNetworks: true },
    });
    const failed = await client.runs.create(null, "failing", {
      input: hello,
      webhook: receiver.url,
    });
    const [first] = await receiver.waitFor(1);
    const failure = new Webhook(secret).verify(first!.body, first!.headers as never);
    expect(failure).toMatchObject({ run_id: failed.run_id, status: "error" });
    expect((failure as { error: string }).error).toContain("draft failed");
    const thread = await client.threads.create();
    const asked = await client.runs.create(thread.thread_id, "asking", {
      input: hello,
      webhook: receiver.url,
    });
    const [, second] = await receiver.waitFor(2);
    expect(JSON.parse(second!.body)).toMatchObject({
      run_id: asked.run_id,
      status: "interrupted",
      values: { draft: "draft for: hello", __interrupt__: [expect.anything()] },
    });
  });

  it("posts nothing for a run rolled back, and tells of a run cancelled with interrupt", async () => {
    receiver = await startReceiver();
    const client = await serve({
      graphs: {
        stuck: twoStepGraph({ writeGate: () => new Promise(() => {}) }),
        review: twoStepGraph(),
      },
      webhooks: { allowPrivateNetworks: true },
    });
    const thread = await client.threads.create();
    const running = async () => {
      const run = await client.runs.create(thread.thread_id, "stuck", {
        input: hello,
        webhook: receiver!.url,
      });
      await expect
        .poll(async () => (await client.runs.get(thread.thread_id, run.run_id)).status)
        .toBe("running");
      return run;
    };
    const rolledBack = await running();
    await client.runs.cancel(thread.thread_id, rolledBack.run_id, true, "rollback");
    const interrupted = await running();
    await client.runs.cancel(thread.thread_id, interrupted.run_id, true, "interrupt");
    const [only] = await receiver.waitFor(1);
    // Unsigned without a secret.
    expect(only!.headers["webhook-signature"]).toBeUndefined();
    expect(JSON.parse(only!.body)).toMatchObject({
      run_id: interrupted.run_id,
      status: "interrupted",
    });
    await client.runs.wait(null, "review", { input: hello, webhook: receiver.url });
    const all = await receiver.waitFor(2);
    expect(all.map((each) => (JSON.parse(each.body) as { run_id: string }).run_id)).not.toContain(
      rolledBack.run_id,
    );
  });

  it("retries 5xx and 429 (after Retry-After) with the same id, and not a 4xx", async () => {
    receiver = await startReceiver([
      { status: 503 },
      { status: 429, retryAfter: "0" },
      { status: 200 },
      { status: 404 },
    ]);
    const log = recordingLogger();
    const client = await serve({
      graphs: { review: twoStepGraph() },
      webhooks: { secret, allowPrivateNetworks: true, retryDelayMs: 10 },
      logger: log.logger,
    });
    await client.runs.wait(null, "review", { input: hello, webhook: receiver.url });
    const attempts = await receiver.waitFor(3);
    expect(new Set(attempts.map((each) => each.headers["webhook-id"])).size).toBe(1);
    for (const attempt of attempts) {
      expect(() =>
        new Webhook(secret).verify(attempt.body, attempt.headers as never),
      ).not.toThrow();
    }
    expect(log.lines.filter((line) => line.includes("retrying in"))).toEqual([
      expect.stringMatching(/^info .*attempt 1 of 5 answered 503; retrying in/),
      expect.stringMatching(/^info .*attempt 2 of 5 answered 429; retrying in 0\.0 s$/),
    ]);
    await client.runs.wait(null, "review", { input: hello, webhook: receiver.url });
    await log.waitFor(/answered 404; not delivered/);
    expect(receiver.received).toHaveLength(4);
  });

  it("retries an attempt the receiver does not answer within timeoutMs", async () => {
    const silent = createHttpServer(() => {});
    await new Promise<void>((resolve) => silent.listen(0, "127.0.0.1", resolve));
    const log = recordingLogger();
    try {
      const client = await serve({
        graphs: { review: twoStepGraph() },
        webhooks: { allowPrivateNetworks: true, timeoutMs: 50, maxAttempts: 2, retryDelayMs: 1 },
        logger: log.logger,
      });
      const port = (silent.address() as AddressInfo).port;
      await client.runs.wait(null, "review", {
        input: hello,
        webhook: `http://127.0.0.1:${port}/hook`,
      });
      await log.waitFor(/attempt 2 of 2 no answer within 50 ms; not delivered$/);
      expect(log.lines).toContainEqual(
        expect.stringMatching(/^info .*attempt 1 of 2 no answer within 50 ms; retrying in/),
      );
    } finally {
      silent.closeAllConnections();
      await new Promise((resolve) => silent.close(resolve));
    }
  });

  it("refuses a literal loopback or private webhook URL at run creation (422)", async () => {
    await serve({ graphs: { review: twoStepGraph() } });
    for (const webhook of [
      "http://127.0.0.1:9/hook",
      "http://[::1]:9/hook",
      "http://[::ffff:127.0.0.1]:9/hook",
      "http://169.254.169.254/latest/meta-data",
      "http://10.0.0.1/hook",
      "https://user:password@hooks.example.com/hook",
      "ftp://hooks.example.com/hook",
    ]) {
      const answer = await fetch(`${running!.url}/runs`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ assistant_id: "review", input: hello, webhook }),
      });
      expect(answer.status, webhook).toBe(422);
      const body = (await answer.json()) as { error: { type: string; issues: unknown[] } };
      expect(body.error.type).toBe("RequestValidationError");
      expect(body.error.issues).toEqual([
        expect.objectContaining({ path: ["webhook"], message: expect.any(String) }),
      ]);
      expect(body).not.toHaveProperty("error.message", expect.stringContaining("password"));
    }
  });

  it("does not send to a host name that resolves to a refused address", async () => {
    receiver = await startReceiver();
    const log = recordingLogger();
    const client = await serve({ graphs: { review: twoStepGraph() }, logger: log.logger });
    await client.runs.wait(null, "review", {
      input: hello,
      webhook: `http://localhost:${receiver.port}/hooks/run-ended`,
    });
    const warning = await log.waitFor(/not delivered/);
    expect(warning).toMatch(
      /^warn .*localhost resolves to (127\.0\.0\.1|::1), an address webhooks are not sent to/,
    );
    expect(receiver.received).toEqual([]);
  });
});
