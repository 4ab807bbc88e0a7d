import { type ChildProcess, spawn } from "node:child_process";
import { fileURLToPath } from "node:url";
import { PostgresSaver } from "@framework/checkpoint-postgres";
import { afterAll, afterEach, describe, expect, it } from "vitest";
import {
  chainWorld,
  dropSchema,
  dropTestQueues,
  postgresUrl,
  servicesMissing,
  sql,
  startInstance,
  type TestInstance,
  testConnection,
} from "./test-queue.js";

const packageRoot = fileURLToPath(new URL("..", import.meta.url));
const workerFixture = fileURLToPath(new URL("../test/fixtures/worker.ts", import.meta.url));

/** A worker process and the lines it printed. */
interface WorkerProcess {
  readonly child: ChildProcess;
  readonly lines: string[];
  /** What it printed on standard error, line by line. */
  readonly errors: string[];
  /** Settles with the first line (already printed or to come) matching `pattern`. */
  line(pattern: RegExp): Promise<string>;
  readonly exited: Promise<void>;
}

const children: ChildProcess[] = [];
const instances: TestInstance[] = [];
const schemas: string[] = [];
const queues: string[] = [];

afterEach(async () => {
  for (const child of children.splice(0)) {
    if (child.exitCode === null && child.signalCode === null) child.kill("SIGKILL");
  }
  for (const instance of instances.splice(0)) await instance.server.close();
});
afterAll(async () => {
  if (servicesMissing) return;
  for (const schema of schemas) await dropSchema(schema);
  for (const queue of queues) await dropTestQueues(queue);
});

function startWorkerProcess(config: Record<string, unknown>): Promise<WorkerProcess> {
  const child = spawn(
    process.execPath,
    ["--conditions=@framework/source", "--import", "tsx", workerFixture, JSON.stringify(config)],
    {
      cwd: packageRoot,
      env: { ...process.env, NODE_OPTIONS: "" },
      stdio: ["ignore", "pipe", "pipe"],
    },
  );
  children.push(child);
  const lines: string[] = [];
  const waiters = new Set<() => void>();
  let buffered = "";
  child.stdout!.setEncoding("utf8").on("data", (chunk: string) => {
    buffered += chunk;
    const complete = buffered.split("\n");
    buffered = complete.pop()!;
    lines.push(...complete);
    for (const wake of [...waiters]) wake();
  });
  const errors: string[] = [];
  child.stderr!.setEncoding("utf8").on("data", (chunk: string) => {
    errors.push(...chunk.split("\n").filter(Boolean));
  });
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  const line = (pattern: RegExp) =>
    new Promise<string>((resolve, reject) => {
      const check = () => {
        const found = lines.find((candidate) => pattern.test(candidate));
        if (found === undefined) return;
        waiters.delete(check);
        resolve(found);
      };
      waiters.add(check);
      void exited.then(() => {
        if (waiters.delete(check)) reject(new Error(`exited before printing ${pattern}`));
      });
      check();
    });
  const started: WorkerProcess = { child, lines, errors, line, exited };
  return started.line(/^ready$/).then(() => started);
}

type StreamPart = { id?: string; event: string; data: unknown };

async function readAll(stream: AsyncIterable<StreamPart>): Promise<StreamPart[]> {
  const parts: StreamPart[] = [];
  for await (const part of stream) parts.push(part);
  return parts;
}

/** A fresh schema and queue, an instance on them, and the config of its worker processes. */
async function deployment(label: string) {
  const connection = { ...testConnection(label), leaseTimeoutMs: 2_000 };
  schemas.push(connection.schema);
  queues.push(connection.queueName);
  const instance = await startInstance(connection, "A", chainWorld());
  instances.push(instance);
  const workerConfig = (name: string, holdMs: number) => ({
    schema: connection.schema,
    queueName: connection.queueName,
    name,
    holdMs,
    leaseTimeoutMs: 2_000,
    recoveryIntervalMs: 200,
  });
  return { connection, instance, workerConfig };
}

/** The thread's checkpoints that hold a trail entry written by `worker` at node `b`. */
async function checkpointsOfB(schema: string, threadId: string, worker: string) {
  const saver = new PostgresSaver({ connectionString: postgresUrl!, schema });
  try {
    let count = 0;
    for await (const checkpoint of saver.list(threadId)) {
      if (JSON.stringify(checkpoint).includes(`b1@${worker}`)) count += 1;
    }
    return count;
  } finally {
    await saver.close();
  }
}

describe.skipIf(servicesMissing)("worker processes that die or stop mid-run", () => {
  it("continues on another worker from the last checkpoint when one is SIGKILLed", async () => {
    const { instance, workerConfig } = await deployment("sigkill");
    const first = await startWorkerProcess(workerConfig("W1", 600_000));
    const thread = await instance.client.threads.create();
    const run = await instance.client.runs.create(thread.thread_id, "chain", {
      input: { hold: "x", label: "1" },
      streamMode: ["updates"],
    });
    // Killed as `b` starts, before `a`'s update (queued after its checkpoint) may be logged:
    // the next attempt, starting after `a`, logs it then.
    await first.line(/^node b 1$/);
    first.child.kill("SIGKILL");
    await first.exited;
    const second = await startWorkerProcess(workerConfig("W2", 0));

    await instance.client.runs.join(thread.thread_id, run.run_id);
    expect((await instance.client.runs.get(thread.thread_id, run.run_id)).status).toBe("success");
    expect((await instance.client.threads.getState(thread.thread_id)).values).toMatchObject({
      trail: ["a1@W1", "b1@W2", "c1@W2"],
    });
    // `a` had ended and been checkpointed: W2 did not run it again.
    expect(second.lines.filter((line) => line.startsWith("node"))).toEqual([
      "node b 1",
      "node c 1",
    ]);
    const parts = await readAll(instance.client.runs.joinStream(thread.thread_id, run.run_id));
    expect(
      parts
        .filter((part) => part.event === "updates")
        .map((part) => Object.keys(part.data as object)[0]),
    ).toEqual(["a", "b", "c"]);
  });

  it("fences a SIGSTOPped worker: another finishes the run, the stopped one writes nothing once continued", async () => {
    const { connection, instance, workerConfig } = await deployment("sigstop");
    // W1's `b` outlasts the stop, so once continued it ends and tries to write its checkpoint.
    const stopped = await startWorkerProcess(workerConfig("W1", 4_000));
    const thread = await instance.client.threads.create();
    const run = await instance.client.runs.create(thread.thread_id, "chain", {
      input: { hold: "x", label: "1" },
      streamMode: ["updates", "values"],
    });
    // Stopped as `b` starts: `a`'s update may still be queued in W1, which W2 then logs.
    await stopped.line(/^node b 1$/);
    stopped.child.kill("SIGSTOP");
    const other = await startWorkerProcess(workerConfig("W2", 0));

    // Postgres ends W1's session once it missed its lease's heartbeats; W2's sweep takes over.
    await instance.client.runs.join(thread.thread_id, run.run_id);
    stopped.child.kill("SIGCONT");
    // Closing waits for W1's `b` to end: whatever it tries to write, it has tried on exit.
    stopped.child.kill("SIGTERM");
    await stopped.exited;

    expect((await instance.client.runs.get(thread.thread_id, run.run_id)).status).toBe("success");
    expect((await instance.client.threads.getState(thread.thread_id)).values).toMatchObject({
      trail: ["a1@W1", "b1@W2", "c1@W2"],
    });
    // Continued, W1 tried to write (the checkpoint of where it stopped) and was refused.
    const refused = [...stopped.lines, ...stopped.errors].filter((line) =>
      /may no longer write it|was not written: no row of server_thread_leases/.test(line),
    );
    expect(refused.length, stopped.errors.join("\n")).toBeGreaterThan(0);
    expect(await checkpointsOfB(connection.schema, thread.thread_id, "W1")).toBe(0);
    expect(other.lines.filter((line) => line.startsWith("node"))).toEqual(["node b 1", "node c 1"]);
    // One stream: every event once, numbered without a gap, each node's update once.
    const parts = await readAll(instance.client.runs.joinStream(thread.thread_id, run.run_id));
    const ids = parts.map((part) => Number(part.id));
    expect(ids).toEqual(ids.map((_, index) => index + 1));
    expect(
      parts
        .filter((part) => part.event === "updates")
        .map((part) => Object.keys(part.data as object)[0]),
    ).toEqual(["a", "b", "c"]);
    const { rows } = await sql(
      `SELECT count(*)::int AS ended FROM "${connection.schema}".server_runs WHERE run_id = $1 AND ended_at IS NOT NULL`,
      [run.run_id],
    );
    expect(rows).toEqual([{ ended: 1 }]);
  });
});
