import type { z } from "zod";
import { type AuthCard, authenticate } from "../auth/authenticate.js";
import { getDefaultLogger, type Logger, withRedaction } from "../log/logger.js";
import { addUsage, type ChatMessage, type ChatModel } from "../model/chat-model.js";
import { responseFormatInstruction } from "../model/response-format-prompt.js";
import { DEFAULT_TOOLS_PATH, RegistryFile } from "../registry/registry-file.js";
import { ToolRegistry, type ToolSource } from "../registry/tool-registry.js";
import { traceAgentInvoke, tracedChatModel } from "../telemetry/agent-tracing.js";
import type { TracingOptions } from "../telemetry/tracing-options.js";
import { DEFAULT_TOOL_TIMEOUT_MS } from "../tool/execute-tool.js";
import { defaultToolOutputLimits, type ToolOutputLimits } from "../tool/tool-output.js";
import type { AgentEvent, AgentEventHandler } from "./agent-event.js";
import type { AgentResult, StructuredAgentResult } from "./agent-result.js";
import { eventStream } from "./event-stream.js";
import { OutputValidationError } from "./output-validation-error.js";
import { buildSystemPrompt, type ToolCallingMode } from "./prompt.js";
import { type OutputSchema, outputResponseFormat, structuredAnswer } from "./structured-output.js";
import type { ApproveToolCall } from "./tool-approval.js";
import { runToolLoop } from "./tool-loop.js";

/** The specification's limit of tool-calling iterations per `invoke`. */
export const DEFAULT_MAX_ITERATIONS = 10;

/** How many tool calls of one model reply run; the rest get an error result. */
export const DEFAULT_MAX_TOOL_CALLS_PER_REPLY = 32;

/** Options of {@link Agent}. */
export interface AgentOptions {
  /** Role statement of the agent; opens its system prompt. */
  description: string;
  /** The model the agent talks to. */
  llm: ChatModel;
  /** Capabilities the agent declares; listed in its system prompt. */
  skills?: readonly string[];
  /**
   * Tool modules: specifiers resolved from the working directory (a package the app depends
   * on, or a relative file path), module objects, single tools, or live tool sources (read
   * again before every `invoke`, such as an MCP server's tools).
   */
  tools?: readonly ToolSource[];
  /**
   * The registry file, relative to `cwd`, where this agent records its tools. Default
   * `templates/tools.json`; `false` turns the file off (no file I/O, no lock).
   */
  toolsPath?: string | false;
  /**
   * Also offer module tools other agents recorded in the registry file, imported only from an
   * installed package or a file inside `cwd` (never a URL or a file elsewhere). Default
   * `false`: the agent offers exactly the tools it was given and those registered on it.
   */
  adoptRecordedTools?: boolean;
  /** Empty the registry file's records when the agent is created. Default `false`. */
  resetTools?: boolean;
  /** The spec's name for `resetTools`, accepted as well: either one set empties the records. */
  isResetTools?: boolean;
  /** Verified before any model call; without it the agent acts as `unknown_user`. */
  authCard?: AuthCard;
  /** Standing instructions appended to the system prompt. */
  instruction?: string;
  /** `native` function calling (default), or `json` for models without it. */
  toolCalling?: ToolCallingMode;
  /** Iteration limit for every `invoke` unless overridden there. Default 10. */
  maxIterations?: number;
  /**
   * Tool calls of one reply that run (concurrently). Calls past it are answered with an error
   * result, so a runaway reply cannot start thousands of calls at once. Default 32.
   */
  maxToolCallsPerReply?: number;
  /**
   * Time limit of one tool call, in milliseconds, unless the tool sets its own `timeoutMs`.
   * Default 60 000. On expiry the model gets a `ToolTimeoutError` result, even when the tool
   * ignores its signal.
   */
  toolTimeoutMs?: number;
  /** How tool results are shortened for the model. */
  toolOutputLimits?: Partial<ToolOutputLimits>;
  /**
   * Asked before each call of a tool marked `needsApproval`; `false` sends the model a result
   * saying the user declined. Without it such calls are declined.
   */
  approveToolCall?: ApproveToolCall;
  /** Where log lines go. Secrets are redacted whatever the logger. */
  logger?: Logger;
  /** Directory tool specifiers and `toolsPath` resolve from. Default `process.cwd()`. */
  cwd?: string;
  /** OpenTelemetry spans of each run; content is recorded only when asked. */
  tracing?: TracingOptions;
}

/** Options of a single {@link Agent.invoke}. */
export interface InvokeOptions {
  /** Who is asking, when no authentication card says otherwise. */
  userId?: string;
  /** Cancels the run, including model calls and running tools. */
  signal?: AbortSignal;
  /** Iteration limit of this run. Default: the agent's (10). */
  maxIterations?: number;
  /**
   * Receives the run's events as they happen (the same ones `stream` yields). With it, a
   * model that can stream is streamed, so `text-delta` events arrive as the model writes.
   */
  onEvent?: AgentEventHandler;
  /** Decides tool calls that need approval in this run, instead of the agent's callback. */
  approveToolCall?: ApproveToolCall;
  /**
   * Asks for the final answer as JSON matching this schema; `result.output` holds it validated.
   * Sent as the request's response format to models with structured outputs, and described in
   * the prompt for the others. Use an object schema: providers require one at the root.
   */
  output?: OutputSchema;
}

/** Options of {@link Agent.stream}: those of `invoke`, whose events the stream yields. */
export type StreamOptions = Omit<InvokeOptions, "onEvent">;

/**
 * What an agent is asked: a question, or a conversation (user messages, assistant replies
 * with their tool calls, tool results), such as the `messages` of a previous result with the
 * next question appended.
 */
export type AgentInput = string | readonly ChatMessage[];

/**
 * An LLM-backed agent that calls its tools in a loop until the model answers.
 *
 * Tool registration starts in the constructor and is asynchronous: `await agent.ready` (or
 * use `await Agent.create(options)`); `invoke` waits for it too.
 *
 * @example
 * const agent = await Agent.create({
 *   description: "You are an academic research assistant.",
 *   llm: new OpenAIChatModel(),
 *   tools: ["@framework/tools-papers"],
 * });
 * const { content } = await agent.invoke("Find recent papers on tool-using agents");
 */
export class Agent {
  /** The role statement that opens the system prompt. */
  readonly description: string;
  /** Capabilities listed in the system prompt. */
  readonly skills: readonly string[];
  /** The model the agent talks to. */
  readonly llm: ChatModel;
  /** This agent's tools; `registerFunctionTool` adds runtime tools. */
  readonly toolRegistry: ToolRegistry;
  readonly #options: AgentOptions;
  readonly #logger: Logger;
  #registration: Promise<void> | undefined;

  constructor(options: AgentOptions) {
    this.#options = options;
    this.description = options.description;
    this.skills = options.skills ?? [];
    this.llm = options.llm;
    this.#logger = withRedaction(options.logger ?? getDefaultLogger());
    const cwd = options.cwd ?? process.cwd();
    const toolsPath = options.toolsPath ?? DEFAULT_TOOLS_PATH;
    this.toolRegistry = new ToolRegistry({
      ...(toolsPath === false ? {} : { file: new RegistryFile(toolsPath, cwd) }),
      logger: this.#logger,
      cwd,
      adoptRecordedTools: options.adoptRecordedTools ?? false,
    });
  }

  /** The spec's name for {@link toolRegistry}: the same registry. */
  get toolsManager(): ToolRegistry {
    return this.toolRegistry;
  }

  /**
   * Settles when every tool module is registered; rejects if one fails. Registration (and so
   * any file I/O) starts on first use of `ready` or `invoke`, not in the constructor.
   */
  get ready(): Promise<void> {
    if (!this.#registration) {
      this.#registration = this.#register();
      // Callers who never await `ready` still see the failure from `invoke`, not as a crash.
      this.#registration.catch(() => {});
    }
    return this.#registration;
  }

  /** Creates an agent and waits until its tools are registered. */
  static async create(options: AgentOptions): Promise<Agent> {
    const agent = new Agent(options);
    await agent.ready;
    return agent;
  }

  /**
   * Answers `input`, calling tools as the model asks. Tool failures go back to the model as
   * error results; the promise rejects only for authentication, model call failures (after
   * retries) and cancellation. `result.messages` continues the conversation: append the next
   * user message and pass it back. With an `output` schema, the answer is also validated
   * (rejecting with `OutputValidationError` when it still fails after one retry; the error's
   * `result` is the run, for a caller that falls back to the answer's text).
   *
   * @example
   * const first = await agent.invoke("My name is Ada.");
   * const second = await agent.invoke([...first.messages, { role: "user", content: "My name?" }]);
   */
  invoke<S extends OutputSchema>(
    input: AgentInput,
    options: InvokeOptions & { output: S },
  ): Promise<StructuredAgentResult<z.output<S>>>;
  invoke(input: AgentInput, options?: InvokeOptions): Promise<AgentResult>;
  async invoke(
    input: AgentInput,
    options: InvokeOptions = {},
  ): Promise<AgentResult | StructuredAgentResult<unknown>> {
    const { onEvent } = options;
    try {
      const traced = { llm: this.llm, tracing: this.#options.tracing };
      const result = await traceAgentInvoke(traced, input, () => this.#run(input, options));
      onEvent?.({ type: "finish", result });
      return result;
    } catch (error) {
      onEvent?.({ type: "error", error });
      throw error;
    }
  }

  /**
   * Runs like `invoke`, yielding its events: text as the model writes it, each tool call and
   * its result, retries, and a last `finish` (holding the result) or `error`. Leaving the loop
   * early, or the signal, cancels the model call and the running tools.
   *
   * @example
   * for await (const event of agent.stream("What time is it in Tokyo?")) {
   *   if (event.type === "text-delta") process.stdout.write(event.text);
   * }
   */
  stream(input: AgentInput, options: StreamOptions = {}): AsyncIterable<AgentEvent> {
    return eventStream<AgentEvent>(
      (onEvent, signal) => this.invoke(input, { ...options, signal, onEvent }),
      options.signal,
    );
  }

  async #run(
    input: AgentInput,
    options: InvokeOptions,
  ): Promise<AgentResult | StructuredAgentResult<unknown>> {
    await this.ready;
    await this.toolRegistry.settled();
    const auth = await authenticate(this.#options.authCard, this.#logger);
    const userId = auth.authenticated ? auth.userId : (options.userId ?? auth.userId);
    this.#logger.info(`I'am chatting with ${userId}`);

    const toolCalling = this.#options.toolCalling ?? "native";
    const definitions = await this.toolRegistry.definitions();
    const format = options.output && outputResponseFormat(options.output);
    // In JSON tool-calling mode a tool call is itself a JSON answer: only the prompt says the format.
    const enforced = format && toolCalling === "native" && this.llm.supportsStructuredOutputs;
    const instruction = [
      this.#options.instruction,
      format && !enforced ? responseFormatInstruction(format) : undefined,
    ]
      .filter((part) => part !== undefined)
      .join("\n\n");
    const system = buildSystemPrompt({
      description: this.description,
      skills: this.skills,
      ...(instruction === "" ? {} : { instruction }),
      toolCalling,
      tools: definitions.map((definition) => ({
        definition,
        record: this.toolRegistry.find(definition.name)?.record,
      })),
    });
    const signal = options.signal ?? new AbortController().signal;
    const approveToolCall = options.approveToolCall ?? this.#options.approveToolCall;
    const model = tracedChatModel(this.llm);
    const result = await runToolLoop({
      model,
      tools: this.toolRegistry,
      definitions,
      messages: [
        { role: "system", content: system },
        ...(typeof input === "string" ? [{ role: "user" as const, content: input }] : input),
      ],
      toolCalling,
      maxIterations: options.maxIterations ?? this.#options.maxIterations ?? DEFAULT_MAX_ITERATIONS,
      maxToolCallsPerReply: this.#options.maxToolCallsPerReply ?? DEFAULT_MAX_TOOL_CALLS_PER_REPLY,
      toolTimeoutMs: this.#options.toolTimeoutMs ?? DEFAULT_TOOL_TIMEOUT_MS,
      outputLimits: { ...defaultToolOutputLimits, ...this.#options.toolOutputLimits },
      logger: this.#logger,
      signal,
      ...(options.onEvent ? { onEvent: options.onEvent } : {}),
      ...(approveToolCall ? { approveToolCall } : {}),
      ...(enforced ? { responseFormat: format } : {}),
    });
    // The system prompt is rebuilt every run, so the conversation handed back leaves it out.
    if (!options.output || !format) return { ...result, messages: result.messages.slice(1) };
    // Appends the retry, when there is one, to `result.messages`.
    const answer = await structuredAnswer({
      schema: options.output,
      format,
      model,
      messages: result.messages,
      content: result.content,
      signal,
    });
    const run: AgentResult = {
      ...result,
      messages: result.messages.slice(1),
      content: answer.content,
      usage: addUsage(result.usage, answer.usage),
    };
    if (!answer.ok) {
      throw new OutputValidationError({ text: answer.content, issues: answer.issues, result: run });
    }
    return { ...run, output: answer.output };
  }

  async #register(): Promise<void> {
    if (this.#options.resetTools ?? this.#options.isResetTools) await this.toolRegistry.reset();
    for (const source of this.#options.tools ?? []) {
      await this.toolRegistry.registerModule(source);
    }
  }
}
