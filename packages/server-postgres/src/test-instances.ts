import { PostgresSaver } from "@framework/checkpoint-postgres";
import { silentLogger } from "@framework/core";
import { defineState, END, FlowStateGraph, type NodeContext, START } from "@framework/graph";
import { createServer, type FrameworkServer, type ServerOptions } from "@framework/server";
import { Gate, uniqueName } from "@framework/testing";
import { Client } from "@langchain/langgraph-sdk";
import { afterAll, afterEach } from "vitest";
import { z } from "zod";
import { PostgresServerStore } from "./postgres-server-store.js";
import { dropSchema, postgresUrl } from "./test-postgres.js";

/** What the chain graphs of one test share: the gate of `b`, and who ran which node. */
export interface ChainWorld {
  gate: Gate;
  /** `instance:node:label`, in the order the nodes ran, across every instance. */
  ran: string[];
}

/** A world whose gate is shut, and nothing ran yet. */
export function chainWorld(): ChainWorld {
  return { gate: new Gate(), ran: [] };
}

/**
 * A three-node graph (`a` → `b` → `c`) labelled with its instance: each node appends to the
 * state's trail and to `world.ran`; `b` waits for the gate when the input asks it to `hold`,
 * and asks a person (`context.interrupt`) when it says `ask`, adding the answer to its entry.
 */
export function chainGraph(instance: string, world: ChainWorld) {
  const State = defineState({
    trail: z.array(z.string()).default([]),
    label: z.string().default(""),
    hold: z.boolean().default(false),
    ask: z.boolean().default(false),
  });
  const graph = new FlowStateGraph(State);
  for (const name of ["a", "b", "c"]) {
    graph.addNode(name, async (state, context: NodeContext) => {
      world.ran.push(`${instance}:${name}:${state.label}`);
      if (name === "b" && state.hold) await world.gate.pass(context.signal);
      const answer =
        name === "b" && state.ask ? context.interrupt<string>({ question: "go?" }) : "";
      return { trail: [...state.trail, `${name}${state.label}${answer}`] };
    });
  }
  graph.addEdge(START, "a");
  graph.addEdge("a", "b");
  graph.addEdge("b", "c");
  graph.addEdge("c", END);
  return graph.compile();
}

/** A server instance over the test schema, as a test starts and stops it. */
export interface TestInstance {
  readonly server: FrameworkServer;
  readonly url: string;
  readonly store: PostgresServerStore;
  close(): Promise<void>;
}

/**
 * Starts a server instance with its own saver, pool and store over `schema`: instances of one
 * test share nothing but the database.
 */
export async function startInstance(
  schema: string,
  name: string,
  world: ChainWorld,
  options: ServerOptions = {},
): Promise<TestInstance> {
  const checkpointer = new PostgresSaver({
    connectionString: postgresUrl!,
    schema,
    maxConnections: 6,
  });
  const store = new PostgresServerStore({ checkpointer });
  const server = createServer({
    graphs: { chain: chainGraph(name, world) },
    checkpointer,
    store,
    logger: silentLogger,
    shutdownGraceMs: 0,
    ...options,
  });
  await server.ready;
  const { url } = await server.listen({ port: 0 });
  let closed: Promise<void> | undefined;
  return {
    server,
    url,
    store,
    close() {
      closed ??= (async () => {
        await server.close();
        await store.close();
        await checkpointer.close();
      })();
      return closed;
    },
  };
}

/**
 * The instances of one test file (call it at the file's top): what `start` starts is closed
 * after each test, and the schemas `schema` hands out are dropped after the file.
 */
export function testInstances() {
  const started: TestInstance[] = [];
  const schemas: string[] = [];
  afterEach(async () => {
    for (const instance of started.splice(0)) await instance.close();
  });
  afterAll(async () => {
    for (const schema of schemas) await dropSchema(schema);
  });
  const schema = (label: string): string => {
    const fresh = uniqueName(label);
    schemas.push(fresh);
    return fresh;
  };
  const start = async (
    schema: string,
    name: string,
    world: ChainWorld,
    options: ServerOptions = {},
  ): Promise<TestInstance> => {
    const instance = await startInstance(schema, name, world, options);
    started.push(instance);
    return instance;
  };
  return {
    /** A fresh schema, dropped after the file. */
    schema,
    /** Starts an instance (see {@link startInstance}), closed after the test. */
    start,
    /** Instances `A` and `B` over a fresh schema, in one fresh world, each with a client. */
    async two(label: string, options: ServerOptions = {}) {
      const fresh = schema(label);
      const world = chainWorld();
      const a = await start(fresh, "A", world, options);
      const b = await start(fresh, "B", world, options);
      return {
        schema: fresh,
        world,
        a,
        b,
        clientA: new Client({ apiUrl: a.url }),
        clientB: new Client({ apiUrl: b.url }),
      };
    },
  };
}
