import type { Agent } from "@framework/core";
import type { Checkpointer } from "@framework/graph";
import {
  type ServableGraph,
  type ServedAssistant,
  servedAgent,
  servedGraph,
} from "./served-assistant.js";

/** The server's assistants, found by assistant id or by the name they are served under. */
export class AssistantRegistry {
  readonly #byId = new Map<string, ServedAssistant>();
  readonly #byName = new Map<string, ServedAssistant>();

  constructor(assistants: Iterable<ServedAssistant>) {
    for (const assistant of assistants) {
      if (this.#byName.has(assistant.graphId)) {
        throw new TypeError(`Two agents or graphs are served as "${assistant.graphId}"`);
      }
      this.#byId.set(assistant.assistantId, assistant);
      this.#byName.set(assistant.graphId, assistant);
    }
  }

  /** The assistant with this id, or served under this name. */
  find(idOrName: string): ServedAssistant | undefined {
    return this.#byId.get(idOrName) ?? this.#byName.get(idOrName);
  }

  /** Every assistant, in the order they were given. */
  all(): ServedAssistant[] {
    return [...this.#byName.values()];
  }
}

/** The agents and graphs a server (or a queue worker) serves, each bound to `checkpointer`. */
export function servedAssistants(
  served: {
    readonly agents?: Readonly<Record<string, Agent>>;
    readonly graphs?: Readonly<Record<string, ServableGraph>>;
  },
  checkpointer: Checkpointer,
): AssistantRegistry {
  return new AssistantRegistry([
    ...Object.entries(served.agents ?? {}).map(([name, agent]) =>
      servedAgent(name, agent, checkpointer),
    ),
    ...Object.entries(served.graphs ?? {}).map(([name, graph]) =>
      servedGraph(name, graph, checkpointer),
    ),
  ]);
}
