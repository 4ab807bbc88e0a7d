import { type ChildProcess, spawn } from "node:child_process";
import type { Server } from "node:http";
import { silentLogger } from "@framework/core";
import {
  defineState,
  END,
  FlowStateGraph,
  type NodeContext,
  reducer,
  START,
} from "@framework/graph";
import { createServer, type FrameworkServer, type ServerOptions } from "@framework/server";
import { Gate, uniqueName } from "@framework/testing";
import { testServices } from "@framework/testing/services";
import { Client } from "@langchain/langgraph-sdk";
import { Queue } from "bullmq";
import { Redis } from "ioredis";
import { afterAll, afterEach, expect } from "vitest";
import { z } from "zod";
import { serverQueue } from "./server-queue.js";
import {
  cronQueueName,
  type ServerQueueConnection,
  webhookQueueName,
} from "./server-queue-connection.js";
import {
  createServerWorker,
  type ServerWorker,
  type ServerWorkerOptions,
} from "./server-worker.js";

/**
 * The servers `pnpm services:start` started, or `undefined` outside CI when one is missing
 * (`servicesMissing`: the tests skip); under CI a missing server throws, so these tests never
 * pass by skipping.
 */
export const {
  postgresUrl,
  redisUrl,
  missing: servicesMissing,
  sql,
  dropSchema,
  loseQueueKeys,
} = testServices("@framework/server-queue", ["postgres", "redis"]);

/** Deletes every Redis key a test's queue left: its runs', webhooks' and crons' queues. */
export async function dropTestQueues(queueName: string): Promise<void> {
  for (const name of [queueName, webhookQueueName(queueName), cronQueueName(queueName)]) {
    await loseQueueKeys(name);
  }
}

/** A private Redis without persistence on `port`, answering once this settles. */
export async function startRedis(port: number): Promise<ChildProcess> {
  const child = spawn(
    "redis-server",
    ["--port", String(port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no"],
    { stdio: "ignore" },
  );
  const probe = new Redis({ port, host: "127.0.0.1", lazyConnect: true, retryStrategy: () => 50 });
  probe.on("error", () => undefined);
  try {
    await expect.poll(() => probe.ping().catch(() => "down"), { timeout: 30_000 }).toBe("PONG");
  } finally {
    probe.disconnect();
  }
  return child;
}

/** SIGKILLs a private Redis: everything it held is gone. */
export async function stopRedis(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((resolve) => child.once("exit", resolve));
  child.kill("SIGKILL");
  await exited;
}

/** What the chain graphs of one test share: the gates of `b`, and who ran which node. */
export interface ChainWorld {
  /** `b` of a run whose input says `hold: "<name>"` waits for this gate. */
  gates: Map<string, Gate>;
  /** `process:node:label`, in the order the nodes ran. */
  ran: string[];
}

/** A world with no gate yet. */
export function chainWorld(): ChainWorld {
  return { gates: new Map(), ran: [] };
}

/** The gate `name` of `world`, made on first use. */
export function gateOf(world: ChainWorld, name: string): Gate {
  let gate = world.gates.get(name);
  if (!gate) {
    gate = new Gate();
    world.gates.set(name, gate);
  }
  return gate;
}

/**
 * A three-node graph (`a` → `b` → `c`) labelled with the process running it: each node appends
 * `<node><label>@<process>` to the state's trail and to `world.ran`; `b` waits for the gate
 * the input's `hold` names (unless `onNode` decides how nodes wait), or asks
 * (`context.interrupt`) when the input says `ask`.
 */
export function chainGraph(
  processName: string,
  world: ChainWorld,
  /** Called as each node starts, before it waits or asks. */
  onNode?: (name: string, state: { label: string; hold: string }) => Promise<void>,
) {
  const State = defineState({
    trail: z.array(z.string()).default([]),
    label: z.string().default(""),
    hold: z.string().default(""),
    ask: z.boolean().default(false),
  });
  const graph = new FlowStateGraph(State);
  for (const name of ["a", "b", "c"]) {
    graph.addNode(name, async (state, context: NodeContext) => {
      world.ran.push(`${processName}:${name}:${state.label}`);
      await onNode?.(name, state);
      if (name === "b" && state.hold && !onNode) {
        await gateOf(world, state.hold).pass(context.signal);
      }
      const answer =
        name === "b" && state.ask ? context.interrupt<string>({ question: "go?" }) : "";
      return { trail: [...state.trail, `${name}${state.label}${answer}@${processName}`] };
    });
  }
  graph.addEdge(START, "a");
  graph.addEdge("a", "b");
  graph.addEdge("b", "c");
  graph.addEdge("c", END);
  return graph.compile();
}

/** The nodes of {@link crewGraph}: a planner, three researchers in parallel, two more after. */
export const crewNodes = ["plan", "market", "risk", "news", "synthesize", "review"] as const;

/**
 * A crew-shaped graph: `plan` fans out to `market`, `risk` and `news`, which run in parallel
 * and join at `synthesize`, then `review`. Each node appends `<node>@<by>` to the trail, `by`
 * read as the node starts (the process running it), after awaiting `onNode`.
 */
export function crewGraph(
  by: () => string,
  onNode?: (name: string, state: { topic: string }) => Promise<void>,
) {
  const State = defineState({
    topic: z.string().default(""),
    trail: reducer(
      z.array(z.string()),
      (current: string[], update: string[]) => [...current, ...update],
      () => [],
    ),
  });
  const graph = new FlowStateGraph(State);
  for (const name of crewNodes) {
    graph.addNode(name, async (state) => {
      const writer = by();
      await onNode?.(name, state);
      return { trail: [`${name}@${writer}`] };
    });
  }
  graph.addEdge(START, "plan");
  for (const researcher of ["market", "risk", "news"]) {
    graph.addEdge("plan", researcher);
    graph.addEdge(researcher, "synthesize");
  }
  graph.addEdge("synthesize", "review");
  graph.addEdge("review", END);
  return graph.compile();
}

/** Where one test's instances and workers meet: a fresh schema and queue. */
export function testConnection(label: string): ServerQueueConnection & {
  schema: string;
  queueName: string;
} {
  return {
    redis: redisUrl!,
    postgres: postgresUrl!,
    schema: uniqueName(label),
    queueName: uniqueName(label),
    logger: silentLogger,
  };
}

/** A server instance that only submits, with an SDK client on it. */
export interface TestInstance {
  readonly server: FrameworkServer;
  readonly client: Client;
  readonly url: string;
}

/** Starts an instance over `connection` serving `chainGraph(name, world)`. */
export async function startInstance(
  connection: ServerQueueConnection,
  name: string,
  world: ChainWorld,
  options: Pick<ServerOptions, "webhooks"> = {},
): Promise<TestInstance> {
  const server = createServer({
    graphs: { chain: chainGraph(name, world) },
    queue: serverQueue(connection),
    logger: silentLogger,
    shutdownGraceMs: 0,
    ...options,
  });
  await server.ready;
  const { url } = await server.listen({ port: 0 });
  return { server, url, client: new Client({ apiUrl: url }) };
}

/** Starts an in-process worker over `connection` running `chainGraph(name, world)`. */
export async function startWorker(
  connection: ServerQueueConnection,
  name: string,
  world: ChainWorld,
  options: Pick<ServerWorkerOptions, "concurrency" | "recoveryIntervalMs" | "webhooks"> = {},
): Promise<ServerWorker> {
  const worker = createServerWorker({
    graphs: { chain: chainGraph(name, world) },
    queue: connection,
    logger: silentLogger,
    shutdownGraceMs: 0,
    ...options,
  });
  await worker.ready;
  return worker;
}

/** What a test opens and has closed after it. */
export type Opened = TestInstance | ServerWorker | Queue | Server;

async function close(opened: Opened): Promise<void> {
  if ("server" in opened) await opened.server.close();
  else if (opened instanceof Queue) await opened.close();
  else if ("listening" in opened) await new Promise((resolve) => opened.close(resolve));
  else await opened.close();
}

/**
 * The deployments of one test file (call it at the file's top): what `keep` is given is closed
 * after each test, the last opened first; the schemas and queues of each `connection` are
 * dropped after the file.
 */
export function testDeployments() {
  const open: Opened[] = [];
  const schemas: string[] = [];
  const queues: string[] = [];
  afterEach(async () => {
    for (const opened of open.splice(0).reverse()) await close(opened);
  });
  afterAll(async () => {
    if (servicesMissing) return;
    for (const schema of schemas) await dropSchema(schema);
    for (const queue of queues) await dropTestQueues(queue);
  });
  return {
    /** A fresh schema and queue (see {@link testConnection}). */
    connection(label: string): ReturnType<typeof testConnection> {
      const connection = testConnection(label);
      schemas.push(connection.schema);
      queues.push(connection.queueName);
      return connection;
    },
    /** Closes `opened` after the test. */
    keep<T extends Opened>(opened: T): T {
      open.push(opened);
      return opened;
    },
  };
}
