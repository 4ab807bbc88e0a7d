import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Agent, type ChatModel, primaryFunction, silentLogger } from "@framework/core";
import {
  appendReducer,
  defineState,
  END,
  FlowStateGraph,
  type NodeContext,
  reducer,
  START,
} from "@framework/graph";
import { z } from "zod";
import { createServer, type FrameworkServer, type ServerOptions } from "./create-server.js";

/** A tool that needs a person's approval before it runs. */
export const transfer_funds = primaryFunction(
  {
    description: "Moves money between accounts.",
    parameters: z.object({ amount: z.number(), to: z.string() }),
    returns: "str",
    needsApproval: true,
  },
  async function transfer_funds({ amount, to }) {
    return `sent ${amount} to ${to}`;
  },
);

/** A tool that runs without asking. */
export const lookup_rate = primaryFunction(
  {
    description: "The exchange rate of a currency pair.",
    parameters: z.object({ pair: z.string() }),
    returns: "str",
  },
  async function lookup_rate({ pair }) {
    return `${pair}: 1.08`;
  },
);

/** An agent over `llm` with a tool that needs approval and one that does not. */
export function testAgent(llm: ChatModel): Agent {
  return new Agent({
    description: "You are a careful banking assistant.",
    llm,
    tools: [{ transfer_funds, lookup_rate }],
    toolsPath: false,
    logger: silentLogger,
  });
}

const Message = z.object({ role: z.string(), content: z.string() });

/** The state of {@link twoStepGraph}. */
export const TwoStepState = defineState({
  messages: reducer(z.array(Message), appendReducer, () => []),
  draft: z.string().optional(),
  approved: z.boolean().optional(),
});

/** Options of {@link twoStepGraph}. */
export interface TwoStepOptions {
  /** Awaited by the `write` node before it returns. */
  writeGate?: () => Promise<void>;
  /** `review` asks a person through `context.interrupt`. */
  askForReview?: boolean;
  /** Counts node runs, by node. */
  runs?: Map<string, number>;
}

/**
 * A two-node graph: `write` drafts an answer to the last message, `review` approves it
 * (asking a person when `askForReview` is set).
 */
export function twoStepGraph(options: TwoStepOptions = {}) {
  const count = (node: string) => options.runs?.set(node, (options.runs.get(node) ?? 0) + 1);
  const graph = new FlowStateGraph(TwoStepState);
  graph.addNode("write", async (state) => {
    count("write");
    await options.writeGate?.();
    const last = state.messages.at(-1)?.content ?? "";
    return { draft: `draft for: ${last}` };
  });
  graph.addNode("review", async (state, context: NodeContext) => {
    count("review");
    const approved = options.askForReview
      ? context.interrupt<boolean>({ question: "Approve the draft?", draft: state.draft })
      : true;
    return {
      approved,
      messages: { role: "reviewer", content: approved ? "approved" : "rejected" },
    };
  });
  graph.addEdge(START, "write");
  graph.addEdge("write", "review");
  graph.addEdge("review", END);
  return graph.compile();
}

/** A server on a free loopback port over a fresh database, and its URL. */
export interface TestServer {
  server: FrameworkServer;
  url: string;
  /** The database folder, deleted by `close`. */
  directory: string;
  close(): Promise<void>;
}

/** Starts a server for a test; `close` stops it and deletes its database. */
export async function startTestServer(
  options: ServerOptions,
  directory = mkdtempSync(join(tmpdir(), "framework-server-")),
): Promise<TestServer> {
  const server = createServer({
    databasePath: join(directory, "server.sqlite"),
    logger: silentLogger,
    shutdownGraceMs: 0,
    ...options,
  });
  await server.ready;
  const { url } = await server.listen({ port: 0 });
  return {
    server,
    url,
    directory,
    async close() {
      await server.close();
      rmSync(directory, { recursive: true, force: true });
    },
  };
}
