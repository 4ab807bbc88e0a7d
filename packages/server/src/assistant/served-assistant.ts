import { randomUUID } from "node:crypto";
import type { Agent } from "@framework/core";
import {
  type Checkpointer,
  CompiledGraph,
  type CrewAgent,
  type StateDefinition,
  type StateRecord,
  StateValidationError,
} from "@framework/graph";
import { z } from "zod";
import { RequestValidationError } from "../error/request-validation-error.js";
import type { JsonObject } from "../store/server-store.js";
import { agentGraph } from "./agent-graph.js";
import { assistantIdOf } from "./assistant-id.js";
import {
  type InputMessage,
  inputMessage,
  type StoredMessage,
  toWireMessage,
} from "./wire-message.js";

/** A graph the server can serve: a compiled graph, or a crew (whose graph is served). */
// biome-ignore lint/suspicious/noExplicitAny: a crew of any state shape may be served.
export type ServableGraph = CompiledGraph<any> | CrewAgent<any>;

/**
 * An agent or graph as the server serves it: an assistant of the Agent Protocol, whose graph
 * saves to the server's checkpointer.
 */
export interface ServedAssistant {
  /** A UUID derived from the name, as LangGraph's server derives it. */
  readonly assistantId: string;
  /** The name it is served under (the protocol's `graph_id`). */
  readonly graphId: string;
  readonly kind: "agent" | "graph";
  readonly description: string | undefined;
  /** The graph that runs, bound to the server's checkpointer. */
  readonly graph: CompiledGraph<StateDefinition>;
  /**
   * The graph input for a request's `input` (or a state update's `values`), checked against
   * the state before any run is created or any state written. `field` is the request field it
   * came from, which the issues' paths start with (default `"input"`).
   *
   * @throws RequestValidationError when the input does not fit the state.
   */
  graphInput(input: unknown, field?: string): unknown;
  /** State values, or a node's update, as the wire shows them. */
  toWire(values: StateRecord): JsonObject;
}

const agentInputSchema = z.union([
  z.string().transform((content): { messages: InputMessage[] } => ({
    messages: [{ role: "user", content }],
  })),
  z.object({
    messages: z
      .union([inputMessage, z.array(inputMessage)])
      .transform((m) => (Array.isArray(m) ? m : [m])),
  }),
]);

/** Serves an agent: a one-node graph over its conversation. */
export function servedAgent(
  name: string,
  agent: Agent,
  checkpointer: Checkpointer,
): ServedAssistant {
  return {
    assistantId: assistantIdOf(name),
    graphId: name,
    kind: "agent",
    description: agent.description,
    graph: agentGraph(agent).withCheckpointer(checkpointer),
    graphInput(input, field = "input") {
      const parsed = agentInputSchema.safeParse(input);
      if (!parsed.success) throw requestIssues(parsed.error, [field]);
      const messages: StoredMessage[] = parsed.data.messages.map((message) => ({
        role: message.role,
        content: message.content,
        id: message.id ?? randomUUID(),
      })) as StoredMessage[];
      return { messages };
    },
    toWire(values) {
      const messages = (values.messages ?? []) as readonly StoredMessage[];
      return { messages: messages.map(toWireMessage) };
    },
  };
}

/** Serves a compiled graph or a crew's graph, its state shown as it is. */
export function servedGraph(
  name: string,
  servable: ServableGraph,
  checkpointer: Checkpointer,
): ServedAssistant {
  const compiled = (
    servable instanceof CompiledGraph ? servable : servable.app
  ) as CompiledGraph<StateDefinition>;
  const graph = compiled.withCheckpointer(checkpointer);
  const { definition } = graph;
  return {
    assistantId: assistantIdOf(name),
    graphId: name,
    kind: "graph",
    description: undefined,
    graph,
    graphInput(input, field = "input") {
      if (input === null || input === undefined) return null;
      const update = withChatMessages(input, definition);
      try {
        definition.applyUpdate(definition.initialValues(), update, "input");
      } catch (error) {
        if (StateValidationError.isInstance(error)) {
          throw new RequestValidationError({
            issues: error.issues.map((message) => ({
              path: error.key === undefined ? [field] : [field, error.key],
              message,
            })),
          });
        }
        throw error;
      }
      return update;
    },
    toWire(values) {
      return values;
    },
  };
}

/**
 * A crew's `messages` hold `{ role, content }`; LangGraph's clients send `{ type, content }`.
 * Those are turned into the chat form; any other input is left for the state to judge.
 */
function withChatMessages(input: unknown, definition: StateDefinition): unknown {
  if (typeof input !== "object" || input === null || !definition.keys.includes("messages")) {
    return input;
  }
  const { messages } = input as { messages?: unknown };
  const list = Array.isArray(messages) ? messages : messages === undefined ? [] : [messages];
  if (!list.some((message) => isLangChainMessage(message))) return input;
  const converted = list.map((message) => {
    if (!isLangChainMessage(message)) return message;
    const parsed = inputMessage.safeParse(message);
    return parsed.success ? { role: parsed.data.role, content: parsed.data.content } : message;
  });
  return { ...input, messages: Array.isArray(messages) ? converted : converted[0] };
}

function isLangChainMessage(message: unknown): boolean {
  return (
    typeof message === "object" && message !== null && "type" in message && !("role" in message)
  );
}

function requestIssues(
  error: z.ZodError,
  prefix: readonly (string | number)[],
): RequestValidationError {
  return new RequestValidationError({
    issues: error.issues.map((issue) => ({
      path: [
        ...prefix,
        ...issue.path.map((part) => (typeof part === "symbol" ? String(part) : part)),
      ],
      message: issue.message,
    })),
  });
}
