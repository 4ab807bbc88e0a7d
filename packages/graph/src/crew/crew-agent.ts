import {
  type AuthCard,
  authenticate,
  type ChatModel,
  getDefaultLogger,
  type Logger,
  withRedaction,
} from "@framework/core";
import type { Checkpointer } from "../checkpoint/checkpointer.js";
import type { StateSnapshot } from "../checkpoint/state-snapshot.js";
import { DEFAULT_THREAD_ID, type GraphConfig } from "../config/graph-config.js";
import type { CompiledGraph } from "../graph/compiled-graph.js";
import type { FlowStateGraph } from "../graph/flow-state-graph.js";
import type { Edge, EdgeChain } from "../node/edge-chain.js";
import type { GraphEvent } from "../run/graph-event.js";
import type { StateDefinition, StateOf, UpdateOf } from "../state/state-definition.js";

/** Options of {@link CrewAgent} other than where it saves checkpoints. */
interface CrewAgentBaseOptions<D extends StateDefinition> {
  /**
   * Accepted because the spec's `CrewAgent(llm, checkpoint, graph, flow)` takes a model, and
   * kept as `crew.llm`; the crew itself calls no model (each node talks to its own), so it
   * may be left out.
   */
  llm?: ChatModel;
  /** The graph over the crew's shared state; it must have a `messages` key. */
  graph: FlowStateGraph<D>;
  /** The edges, e.g. `[START.to(market), START.to(crypto), market.to(recommender), …]`. */
  flow: Iterable<EdgeChain | Edge>;
  /** Verified before each run; its subject becomes the run's `user_id`. */
  authCard?: AuthCard;
  /** Node-run limit per invocation. Default 100. */
  stepLimit?: number;
  /** Receives the crew's and its graph's log lines, secrets redacted; default logger if unset. */
  logger?: Logger;
}

/**
 * Options of {@link CrewAgent}: a `checkpointer` (named as in `graph.compile`), or `checkpoint`,
 * the spec's name for it, and the rest of {@link CrewAgentBaseOptions}.
 */
export type CrewAgentOptions<D extends StateDefinition> = CrewAgentBaseOptions<D> &
  (
    | {
        /** Saves a checkpoint after every node, so a failed or cancelled run can resume. */
        checkpointer: Checkpointer;
        checkpoint?: undefined;
      }
    | {
        checkpointer?: undefined;
        /** The spec's name for `checkpointer` (same meaning); both stay. */
        checkpoint: Checkpointer;
      }
  );

/** Options of one crew run. */
export interface CrewInvokeOptions {
  /** Who is asking, when no authentication card says otherwise. */
  userId?: string;
  /** The checkpoint thread. Default `"1"`. */
  threadId?: string | number;
  /** Cancels the run; a later `resume` continues it. */
  signal?: AbortSignal;
}

/**
 * A crew of agent nodes wired into a graph over shared state. Nodes with no dependency between
 * them run concurrently; a node with several predecessors runs once all of them finished.
 *
 * @example
 * const crew = new CrewAgent({ checkpointer: new MemorySaver(), graph: new FlowStateGraph(TradingState),
 *   flow: [START.to(market), START.to(crypto), market.to(recommender), crypto.to(recommender), recommender.to(END)] });
 * const finalState = await crew.invoke("How should I allocate?", { userId: "u1", threadId: "7" });
 */
export class CrewAgent<D extends StateDefinition> {
  /** The model given as the spec's `llm` option, if any; the crew calls no model itself. */
  readonly llm: ChatModel | undefined;
  /** Where the crew saves a checkpoint after every node. */
  readonly checkpointer: Checkpointer;
  /** The compiled graph the crew runs. */
  readonly app: CompiledGraph<D>;

  readonly #authCard: AuthCard | undefined;
  readonly #logger: Logger;

  constructor(options: CrewAgentOptions<D>) {
    if (!options.graph.definition.keys.includes("messages")) {
      throw new TypeError("A crew's state needs a `messages` key: the query is written there.");
    }
    this.llm = options.llm;
    this.checkpointer = options.checkpointer ?? options.checkpoint;
    this.#authCard = options.authCard;
    this.#logger = withRedaction(options.logger ?? getDefaultLogger());
    options.graph.addFlow(options.flow);
    this.app = options.graph.compile({
      checkpointer: this.checkpointer,
      logger: this.#logger,
      ...(options.stepLimit === undefined ? {} : { stepLimit: options.stepLimit }),
    });
  }

  /**
   * Runs the crew on `query`: the graph gets `{ messages: { role: "user", content: query } }`
   * and `{ configurable: { user_id, thread_id } }`, and the final shared state is returned.
   */
  async invoke(query: string, options: CrewInvokeOptions = {}): Promise<StateOf<D>> {
    return this.app.invoke(this.#input(query), await this.#config(options));
  }

  /** Like `invoke`, yielding node start/end events and the final state as they happen. */
  async *stream(
    query: string,
    options: CrewInvokeOptions = {},
  ): AsyncGenerator<GraphEvent<StateOf<D>, UpdateOf<D>>> {
    yield* this.app.stream(this.#input(query), await this.#config(options));
  }

  /** Continues the thread's failed or cancelled run without re-running finished nodes. */
  async resume(options: CrewInvokeOptions = {}): Promise<StateOf<D>> {
    return this.app.invoke(null, await this.#config(options));
  }

  /** The thread's saved state. */
  getState(options: Pick<CrewInvokeOptions, "threadId"> = {}): Promise<StateSnapshot<StateOf<D>>> {
    return this.app.getState({
      configurable: { thread_id: String(options.threadId ?? DEFAULT_THREAD_ID) },
    });
  }

  #input(query: string): UpdateOf<D> {
    return { messages: { role: "user", content: query } } as unknown as UpdateOf<D>;
  }

  async #config(options: CrewInvokeOptions): Promise<GraphConfig> {
    const auth = await authenticate(this.#authCard, this.#logger);
    const userId = auth.authenticated ? auth.userId : (options.userId ?? auth.userId);
    return {
      configurable: { user_id: userId, thread_id: String(options.threadId ?? DEFAULT_THREAD_ID) },
      ...(options.signal === undefined ? {} : { signal: options.signal }),
    };
  }
}
