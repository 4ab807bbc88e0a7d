import { AsyncLocalStorage } from "node:async_hooks";
import {
  Agent,
  type AgentEvent,
  type AgentResult,
  type ApproveToolCall,
  type AuthCard,
  type ChatMessage,
  type ChatModel,
  getDefaultLogger,
  type InvokeOptions,
  type Logger,
  type OutputSchema,
  OutputValidationError,
  type StructuredAgentResult,
  type ToolApprovalRequest,
  type ToolCallingMode,
  type ToolRegistry,
  type ToolSource,
  type TracingOptions,
  withRedaction,
} from "@framework/core";
import type { z } from "zod";
import { GraphNode, type NodeContext } from "../node/graph-node.js";
import type { StateRecord } from "../state/state-engine.js";
import type { AgentConversations } from "./agent-conversations.js";

/** Options of {@link AgentNode} other than its role statement. */
interface AgentNodeBaseOptions {
  /** The node's name in the graph. */
  name: string;
  /** The model this node's agent talks to. */
  llm: ChatModel;
  /** Tool modules (specifiers, module objects or single tools); may be empty. */
  tools?: readonly ToolSource[];
  /** Capabilities listed in the system prompt. */
  skills?: readonly string[];
  /** Registry file shared by the crew's nodes. Default `templates/tools.json`; `false`: none. */
  toolsPath?: string | false;
  /** Also offer tools other agents recorded in the registry file (see `AgentOptions`). */
  adoptRecordedTools?: boolean;
  /** Empty the registry file when this node is created. Default `false`. */
  resetTools?: boolean;
  /** The spec's name for `resetTools` (same meaning); both stay. */
  isResetTools?: boolean;
  /** Verified before each model call of this node. */
  authCard?: AuthCard;
  /** `native` (default) or `json` tool calling. */
  toolCalling?: ToolCallingMode;
  /**
   * Decides calls of tools marked `needsApproval`. Without it, inside a graph run such a call
   * interrupts the run with a {@link ToolApprovalInterrupt}, and `resume(true | false)`
   * decides it (the node runs again, so its model is asked again).
   */
  approveToolCall?: ApproveToolCall;
  /** Where the node's log lines, including `loggingMessage` banners, go. */
  logger?: Logger;
  /** Directory tool specifiers resolve from. Default `process.cwd()`. */
  cwd?: string;
  /** The agent's OpenTelemetry options; its `agentName` defaults to the node's name. */
  tracing?: TracingOptions;
  /**
   * Keep this node's conversation in the graph state, per thread: each `invoke` continues
   * it, and the node's update saves it. The state needs a `conversations:
   * agentConversations()` key. Default `false`: every `invoke` starts afresh.
   */
  memory?: boolean;
}

/**
 * Options of {@link AgentNode}: a `description` (the node's role and rules, its agent's system
 * prompt, named as in `Agent`) and the rest of {@link AgentNodeBaseOptions}.
 */
export type AgentNodeOptions = AgentNodeBaseOptions &
  (
    | {
        /** The node's role and rules: its agent's system prompt (`Agent`'s `description`). */
        description: string;
        instruction?: undefined;
      }
    | {
        description?: undefined;
        /** The spec's name for `description` (same meaning); both stay. */
        instruction: string;
      }
  );

/** The run a node is serving, and its conversation so far when the node keeps one. */
interface NodeRun {
  context: NodeContext;
  conversation?: { messages: readonly ChatMessage[] };
}

/**
 * The run a node is serving, kept per asynchronous call chain so one node instance can serve
 * concurrent runs of a crew: `invoke` picks up the right signal, user and conversation.
 */
const currentRun = new AsyncLocalStorage<NodeRun>();

/** The interrupt value of an agent node asking to run a tool; answer with `resume(boolean)`. */
export interface ToolApprovalInterrupt {
  readonly type: "tool-approval";
  readonly call: ToolApprovalRequest;
}

/**
 * A graph node backed by an agent. Subclasses implement `exec(state)`, typically asking
 * `this.invoke(prompt)` and returning the state update; decorate `exec` with
 * `@loggingMessage` to log the spec's response banner.
 *
 * @example
 * type Trading = StateOf<typeof TradingState>;
 * class MarketDataProvider extends AgentNode<Trading, UpdateOf<typeof TradingState>> {
 *   @loggingMessage
 *   async exec(state: Trading) {
 *     const reply = await this.invoke(`Analyse ${state.messages.at(-1)?.content}`);
 *     return { equity_insight: reply.content, messages: { role: "MarketDataProvider", content: reply.content } };
 *   }
 * }
 */
export abstract class AgentNode<S = StateRecord, U = Partial<S>> extends GraphNode<S, U> {
  /** The model this node's agent talks to. */
  readonly llm: ChatModel;
  /** The node's role and rules: its agent's system prompt. */
  readonly description: string;
  /** The agent answering this node's prompts. */
  readonly agent: Agent;
  /** Used by `loggingMessage` for the response banner. */
  readonly logger: Logger;
  /** Whether the node keeps its conversation in the graph state (see `AgentNodeOptions`). */
  readonly memory: boolean;

  constructor(options: AgentNodeOptions) {
    super(options.name);
    this.llm = options.llm;
    this.description = options.description ?? options.instruction;
    this.memory = options.memory ?? false;
    this.logger = withRedaction(options.logger ?? getDefaultLogger());
    this.agent = new Agent({
      description: this.description,
      llm: options.llm,
      tools: options.tools ?? [],
      skills: options.skills ?? [],
      resetTools: options.resetTools ?? options.isResetTools ?? false,
      logger: this.logger,
      ...(options.toolsPath === undefined ? {} : { toolsPath: options.toolsPath }),
      ...(options.adoptRecordedTools === undefined
        ? {}
        : { adoptRecordedTools: options.adoptRecordedTools }),
      ...(options.authCard === undefined ? {} : { authCard: options.authCard }),
      ...(options.toolCalling === undefined ? {} : { toolCalling: options.toolCalling }),
      ...(options.cwd === undefined ? {} : { cwd: options.cwd }),
      tracing: { agentName: options.name, ...options.tracing },
      ...(options.approveToolCall === undefined
        ? {}
        : { approveToolCall: options.approveToolCall }),
    });
    this.#approves = options.approveToolCall !== undefined;
  }

  readonly #approves: boolean;

  /** This node's tools; `registerFunctionTool(fn)` adds a runtime tool. */
  get toolRegistry(): ToolRegistry {
    return this.agent.toolRegistry;
  }

  /** The spec's name for `toolRegistry` (the same registry); both stay. */
  get toolsManager(): ToolRegistry {
    return this.agent.toolRegistry;
  }

  /** The spec's name for `description` (the same text); both stay. */
  get instruction(): string {
    return this.description;
  }

  /** Settles when the node's tool modules are registered. */
  get ready(): Promise<void> {
    return this.agent.ready;
  }

  /**
   * Asks this node's agent. Inside a graph run, the run's abort signal and user id apply
   * unless given here, and the agent's events reach the graph's `stream` as
   * `{ type: "agent", node, event }`. With an `output` schema the result carries the typed
   * `output`.
   */
  invoke<S extends OutputSchema>(
    prompt: string,
    options: InvokeOptions & { output: S },
  ): Promise<StructuredAgentResult<z.output<S>>>;
  invoke(prompt: string, options?: InvokeOptions): Promise<AgentResult>;
  async invoke(prompt: string, options: InvokeOptions = {}): Promise<AgentResult> {
    const frame = currentRun.getStore();
    const run = frame?.context;
    const userId = options.userId ?? run?.config.configurable?.user_id;
    const signal = options.signal ?? run?.signal;
    const { onEvent } = options;
    const report =
      run && onEvent
        ? (event: AgentEvent) => {
            onEvent(event);
            run.agentEvent(event);
          }
        : (run?.agentEvent ?? onEvent);
    const askGraph =
      run && !this.#approves && options.approveToolCall === undefined
        ? (call: ToolApprovalRequest) =>
            run.interrupt<boolean>({ type: "tool-approval", call } satisfies ToolApprovalInterrupt)
        : undefined;
    const conversation = frame?.conversation;
    try {
      const result = await this.agent.invoke(
        conversation ? [...conversation.messages, { role: "user", content: prompt }] : prompt,
        {
          ...options,
          ...(userId === undefined ? {} : { userId }),
          ...(signal === undefined ? {} : { signal }),
          ...(report === undefined ? {} : { onEvent: report }),
          ...(askGraph ? { approveToolCall: askGraph } : {}),
        },
      );
      if (conversation) conversation.messages = result.messages;
      return result;
    } catch (error) {
      // An answer that did not fit the schema is still a turn the model took: a node that
      // goes on with the prose keeps it in its conversation like any other.
      if (conversation && OutputValidationError.isInstance(error) && error.result) {
        conversation.messages = error.result.messages;
      }
      throw error;
    }
  }

  /** The node's work: read the state snapshot, return the update to merge. */
  abstract exec(state: S, context: NodeContext): U | Promise<U>;

  override run(state: S, context: NodeContext): Promise<U> {
    if (!this.memory) return currentRun.run({ context }, async () => this.exec(state, context));
    const saved = (state as { conversations?: AgentConversations }).conversations?.[this.name];
    const conversation = { messages: saved ?? [] };
    return currentRun.run({ context, conversation }, async () => {
      const update = await this.exec(state, context);
      // Saved with the node's own update, so the conversation and the work it led to are
      // checkpointed together.
      const conversations: AgentConversations = { [this.name]: [...conversation.messages] };
      return { ...update, conversations } as U;
    });
  }
}
