import type OpenAI from "openai";
import type { ChatCompletionCreateParamsNonStreaming } from "openai/resources/chat/completions";
import { AbortedError } from "../error/aborted-error.js";
import { ConfigurationError } from "../error/configuration-error.js";
import { ModelCallError } from "../error/model-call-error.js";
import { ModelResponseError } from "../error/model-response-error.js";
import { ModelTimeoutError } from "../error/model-timeout-error.js";
import { getDefaultLogger, type Logger, withRedaction } from "../log/logger.js";
import { redactUrlCredentials, registerSecret } from "../log/redact.js";
import type { ChatModel, ChatRequest, ChatResponse, ChatStreamPart } from "./chat-model.js";
import {
  parseCompletion,
  StreamAssembler,
  toOpenAIMessages,
  toOpenAITools,
} from "./openai-chat-model-wire.js";
import { OpenAIErrorBodies } from "./openai-error-body.js";
import { withResponseFormatInstruction } from "./response-format-prompt.js";
import {
  isResponseFormatRefusal,
  refusedResponseFormat,
  rememberResponseFormatRefusal,
} from "./response-format-refusal.js";
import { parseRetryAfter, retryWithBackoff } from "./retry.js";
import { resolveStructuredOutputsMode, type StructuredOutputsMode } from "./structured-outputs.js";

/** Options of {@link OpenAIChatModel}. Unset values come from the environment at construction. */
export interface OpenAIChatModelOptions {
  /** Defaults to `LLM_API_KEY`; required. */
  apiKey?: string;
  /** Defaults to `LLM_API_URL`, else `https://api.together.xyz/v1`. */
  baseURL?: string;
  /** Defaults to `LLM_MODEL`, else `meta-llama/Llama-3.3-70B-Instruct-Turbo`. */
  model?: string;
  /**
   * Bound of one request, in milliseconds (default 60 000): until the whole body is read,
   * or, when streaming, between two chunks. Timeouts are not retried.
   */
  timeoutMs?: number;
  /**
   * Bound of a whole call, in milliseconds (default 600 000, ten minutes): every attempt and
   * wait between retries, and for a stream everything until its last chunk, so a provider
   * that keeps sending without finishing cannot hold a call forever.
   */
  totalTimeoutMs?: number;
  /** Retries after HTTP 429, 408, 500, 502, 503, 504 and network errors (default 4). */
  maxRetries?: number;
  /** Wait before the first retry when the provider sends no Retry-After (default 1000 ms). */
  retryBaseDelayMs?: number;
  /** Upper bound of any wait between retries, Retry-After included (default 30 000 ms). */
  retryMaxDelayMs?: number;
  /** Used when a request sets none. */
  temperature?: number;
  /**
   * How a request's `responseFormat` (an agent's `output` schema) reaches the provider.
   * Defaults to `LLM_STRUCTURED_OUTPUTS`, else `auto`:
   * - `on`: as `response_format: { type: "json_schema", json_schema: { name, schema, strict } }`;
   * - `off`: never as `response_format`; agents describe the schema in the prompt instead;
   * - `auto`: as `on`, until the provider answers HTTP 400 refusing `response_format`. That
   *   call is then sent again at once with the schema in the system prompt, and every later
   *   call to the same base URL and model goes straight to the prompt, for the rest of the
   *   process (logged once, at `info`).
   *
   * `true` and `false` still mean `on` and `off`, with a deprecation warning once per process.
   */
  structuredOutputs?: StructuredOutputsMode | boolean;
  /** Receives the retry lines; defaults to the process-wide logger. */
  logger?: Logger;
  /** Replaces the global `fetch`, e.g. to route or record requests. */
  fetch?: typeof globalThis.fetch;
}

/**
 * How a request's `responseFormat` goes out: as `response_format` (`json_schema`), as a
 * section of the system prompt (`prompt`), or not at all (`none`: there is none, or the mode is
 * `off` and the agent wrote the schema into its prompt itself).
 */
type FormatForm = "json_schema" | "prompt" | "none";

const defaultBaseURL = "https://api.together.xyz/v1";
const defaultModel = "meta-llama/Llama-3.3-70B-Instruct-Turbo";
const operation = "chat completion";
const retryableStatuses = new Set([408, 429, 500, 502, 503, 504]);

type OpenAIModule = typeof import("openai");
let openAIModule: Promise<OpenAIModule> | undefined;

/**
 * The `openai` package, imported on first use: importing it takes about as long as the rest
 * of this package together, and an application should not pay that at startup for a model
 * it has not called yet.
 */
function loadOpenAI(): Promise<OpenAIModule> {
  openAIModule ??= import("openai");
  return openAIModule;
}

/**
 * Bounds one request by `timeoutMs` and ties it to the caller's signal. The openai client's
 * own timeout stops at the response headers; this one also covers reading the body.
 */
class RequestDeadline {
  readonly #controller = new AbortController();
  readonly #outer: AbortSignal | undefined;
  readonly #timeoutMs: number;
  readonly #onOuterAbort = () => this.#controller.abort(this.#outer?.reason);
  #timer: ReturnType<typeof setTimeout> | undefined;
  #timedOut = false;

  constructor(timeoutMs: number, outer: AbortSignal | undefined) {
    this.#timeoutMs = timeoutMs;
    this.#outer = outer;
    if (outer?.aborted) this.#controller.abort(outer.reason);
    else outer?.addEventListener("abort", this.#onOuterAbort, { once: true });
    this.start();
  }

  get signal(): AbortSignal {
    return this.#controller.signal;
  }

  get timedOut(): boolean {
    return this.#timedOut;
  }

  start(): void {
    this.stop();
    this.#timer = setTimeout(() => {
      this.#timedOut = true;
      this.#controller.abort();
    }, this.#timeoutMs);
  }

  stop(): void {
    clearTimeout(this.#timer);
    this.#timer = undefined;
  }

  dispose(): void {
    this.stop();
    this.#outer?.removeEventListener("abort", this.#onOuterAbort);
  }
}

function messageChain(error: unknown): string {
  const messages: string[] = [];
  for (let current = error; current instanceof Error && messages.length < 3; ) {
    if (current.message) messages.push(current.message);
    current = current.cause;
  }
  return messages.join(": ") || String(error);
}

/**
 * A {@link ChatModel} for any OpenAI-compatible `POST {baseURL}/chat/completions` endpoint
 * (OpenAI, Together, Groq, OpenRouter, vLLM, Ollama...), on the `openai` package. It retries
 * rate limits, server errors and network failures itself so that each wait is logged, and
 * rejects with {@link ModelCallError} (or its subclasses {@link ModelTimeoutError} and
 * {@link ModelResponseError}) or, when the signal fires, {@link AbortedError}.
 */
export class OpenAIChatModel implements ChatModel {
  readonly provider = "openai-compatible";
  readonly modelId: string;
  /** The API root; requests go to `{baseURL}/chat/completions`. */
  readonly baseURL: string;
  /** Bound of one request, or of the wait between two stream chunks, in milliseconds. */
  readonly timeoutMs: number;
  /** Bound of a whole call, retries and streaming included, in milliseconds. */
  readonly totalTimeoutMs: number;
  /** Retries after the first attempt of a request. */
  readonly maxRetries: number;
  readonly #clientOptions: ConstructorParameters<typeof OpenAI>[0];
  #sdk: { module: OpenAIModule; client: OpenAI } | undefined;
  readonly #temperature: number | undefined;
  /** How a request's `responseFormat` reaches the provider (see the option). */
  readonly structuredOutputs: StructuredOutputsMode;
  /**
   * Whether this model conveys a request's `responseFormat` itself (`structuredOutputs` is not
   * `off`): as `response_format`, or in the prompt once the provider refused that.
   */
  readonly supportsStructuredOutputs: boolean;
  readonly #logger: Logger | undefined;
  readonly #retryBaseDelayMs: number;
  readonly #retryMaxDelayMs: number;
  readonly #errorBodies = new OpenAIErrorBodies();

  /** @throws {ConfigurationError} when no API key is given and `LLM_API_KEY` is unset. */
  constructor(options: OpenAIChatModelOptions = {}) {
    const apiKey = options.apiKey || process.env.LLM_API_KEY;
    if (!apiKey) {
      throw new ConfigurationError({
        setting: "LLM_API_KEY",
        message:
          "LLM_API_KEY is not set. Set the LLM_API_KEY environment variable (for example in a .env file) to your LLM provider's API key, or pass apiKey to new OpenAIChatModel({ apiKey }).",
      });
    }
    registerSecret(apiKey);
    this.baseURL = options.baseURL || process.env.LLM_API_URL || defaultBaseURL;
    this.modelId = options.model || process.env.LLM_MODEL || defaultModel;
    this.timeoutMs = options.timeoutMs ?? 60_000;
    this.totalTimeoutMs = options.totalTimeoutMs ?? 600_000;
    this.maxRetries = options.maxRetries ?? 4;
    this.#retryBaseDelayMs = options.retryBaseDelayMs ?? 1000;
    this.#retryMaxDelayMs = options.retryMaxDelayMs ?? 30_000;
    this.#temperature = options.temperature;
    this.structuredOutputs = resolveStructuredOutputsMode(options.structuredOutputs);
    this.supportsStructuredOutputs = this.structuredOutputs !== "off";
    this.#logger = options.logger && withRedaction(options.logger);
    this.#clientOptions = {
      apiKey,
      baseURL: this.baseURL,
      timeout: this.timeoutMs,
      maxRetries: 0,
      // The client would log to the console on its own; this class reports what matters.
      logLevel: "off",
      fetch: this.#errorBodies.wrap(options.fetch ?? ((input, init) => fetch(input, init))),
    };
  }

  /** Sends one chat completion request, retrying as configured, and checks the answer's shape. */
  async generate(request: ChatRequest): Promise<ChatResponse> {
    const form = this.#formatForm(request);
    try {
      return await this.#generate(request, form);
    } catch (error) {
      if (!this.#fallsBack(form, error)) throw error;
      return this.#generate(request, "prompt");
    }
  }

  async #generate(request: ChatRequest, form: FormatForm): Promise<ChatResponse> {
    const body = this.#params(request, form);
    const total = new RequestDeadline(this.totalTimeoutMs, request.signal);
    const progress = { attempts: 0 };
    try {
      const { value, deadline } = await this.#send(
        total.signal,
        request.onRetry,
        progress,
        async (client, deadline, attempt) => {
          const parsed = parseCompletion(
            await client.chat.completions.create(body, { signal: deadline.signal }),
          );
          if (!parsed.ok) throw this.#responseError(attempt, parsed.detail);
          return parsed.response;
        },
      );
      deadline.dispose();
      return value;
    } catch (error) {
      throw this.#totalTimeout(total, progress) ?? error;
    } finally {
      total.dispose();
    }
  }

  /**
   * Streams one answer: text deltas as they arrive, then each tool call once complete, then
   * the finish part. Only opening the stream is retried; a stream cut off midway rejects.
   */
  async *stream(request: ChatRequest): AsyncGenerator<ChatStreamPart> {
    const total = new RequestDeadline(this.totalTimeoutMs, request.signal);
    const progress = { attempts: 0 };
    const open = (form: FormatForm) => {
      const body = {
        ...this.#params(request, form),
        stream: true as const,
        stream_options: { include_usage: true },
      };
      return this.#send(total.signal, request.onRetry, progress, (client, deadline) =>
        client.chat.completions.create(body, { signal: deadline.signal }),
      );
    };
    const form = this.#formatForm(request);
    // A refusal comes before the first chunk, so nothing has been yielded when it is retried.
    const opened = await open(form)
      .catch((error: unknown) => {
        if (!this.#fallsBack(form, error)) throw error;
        return open("prompt");
      })
      .catch((error: unknown) => {
        total.dispose();
        throw this.#totalTimeout(total, progress) ?? error;
      });
    const { value: chunks, deadline, attempt } = opened;
    const assembler = new StreamAssembler();
    try {
      // From here the deadline bounds the wait for each chunk, not the whole stream.
      deadline.start();
      for await (const chunk of chunks) {
        AbortedError.throwIfAborted(request.signal, operation);
        const parts = assembler.push(chunk);
        if (typeof parts === "string") throw this.#responseError(attempt, parts);
        deadline.stop();
        for (const part of parts) yield part;
        deadline.start();
      }
      // The openai stream ends quietly when aborted or cut between events.
      if (!assembler.finished) throw new Error("the stream ended before the model finished");
      deadline.stop();
      yield* assembler.end();
    } catch (error) {
      throw (
        this.#totalTimeout(total, progress) ??
        this.#toModelError(error, attempt, deadline, request.signal, "stream")
      );
    } finally {
      deadline.dispose();
      total.dispose();
    }
  }

  /** The timeout error when the call's total deadline expired, else `undefined`. */
  #totalTimeout(
    total: RequestDeadline,
    progress: { attempts: number },
  ): ModelTimeoutError | undefined {
    if (!total.timedOut) return undefined;
    return new ModelTimeoutError({
      provider: this.provider,
      modelId: this.modelId,
      attempts: Math.max(progress.attempts, 1),
      timeoutMs: this.totalTimeoutMs,
    });
  }

  /** How the request's `responseFormat`, if any, is sent this time. */
  #formatForm(request: ChatRequest): FormatForm {
    if (!request.responseFormat || this.structuredOutputs === "off") return "none";
    if (this.structuredOutputs === "on") return "json_schema";
    return refusedResponseFormat(this.baseURL, this.modelId) ? "prompt" : "json_schema";
  }

  /**
   * Whether a call sent with `form` is sent again with the schema in the prompt: in `auto`
   * mode, when the provider refused `response_format`. The first refusal of this base URL and
   * model in the process is remembered and logged.
   */
  #fallsBack(form: FormatForm, error: unknown): boolean {
    if (form !== "json_schema" || this.structuredOutputs !== "auto") return false;
    if (!isResponseFormatRefusal(error)) return false;
    if (rememberResponseFormatRefusal(this.baseURL, this.modelId)) {
      (this.#logger ?? getDefaultLogger()).info(
        `${this.modelId} at ${redactUrlCredentials(this.baseURL)} refused response_format (${error.upstreamMessage}); it is asked for JSON through the prompt from now on`,
      );
    }
    return true;
  }

  #params(request: ChatRequest, form: FormatForm): ChatCompletionCreateParamsNonStreaming {
    const tools = request.tools ?? [];
    const temperature = request.temperature ?? this.#temperature;
    const messages =
      form === "prompt" && request.responseFormat
        ? withResponseFormatInstruction(request.messages, request.responseFormat)
        : request.messages;
    return {
      model: this.modelId,
      messages: toOpenAIMessages(messages),
      ...(tools.length > 0
        ? { tools: toOpenAITools(tools), tool_choice: request.toolChoice ?? "auto" }
        : {}),
      ...(temperature !== undefined ? { temperature } : {}),
      ...(request.maxOutputTokens !== undefined ? { max_tokens: request.maxOutputTokens } : {}),
      ...(form === "json_schema" && request.responseFormat
        ? {
            response_format: {
              type: "json_schema",
              json_schema: {
                name: request.responseFormat.name,
                schema: request.responseFormat.schema,
                strict: request.responseFormat.strict,
              },
            },
          }
        : {}),
    };
  }

  /**
   * Runs `call` with retries. On success the deadline is handed back undisposed, so a
   * stream can keep bounding its reads; the caller disposes it.
   */
  async #send<T>(
    signal: AbortSignal | undefined,
    onRetry: ChatRequest["onRetry"],
    progress: { attempts: number },
    call: (client: OpenAI, deadline: RequestDeadline, attempt: number) => Promise<T>,
  ): Promise<{ value: T; deadline: RequestDeadline; attempt: number }> {
    AbortedError.throwIfAborted(signal, operation);
    const { client } = await this.#loadSdk();
    AbortedError.throwIfAborted(signal, operation);
    return retryWithBackoff(
      async (attempt) => {
        progress.attempts = attempt;
        const deadline = new RequestDeadline(this.timeoutMs, signal);
        try {
          return { value: await call(client, deadline, attempt), deadline, attempt };
        } catch (error) {
          deadline.dispose();
          throw this.#toModelError(error, attempt, deadline, signal, "request");
        }
      },
      {
        maxRetries: this.maxRetries,
        baseDelayMs: this.#retryBaseDelayMs,
        maxDelayMs: this.#retryMaxDelayMs,
        logger: this.#logger ?? getDefaultLogger(),
        path: "/chat/completions",
        signal,
        operation,
        ...(onRetry ? { onRetry } : {}),
        shouldRetry: (error) =>
          ModelCallError.isInstance(error) && error.retryable && error.kind !== "timeout"
            ? {
                reason:
                  error.statusCode === undefined ? "connection error" : `HTTP ${error.statusCode}`,
                ...(error.retryAfterMs !== undefined ? { retryAfterMs: error.retryAfterMs } : {}),
                ...(error.statusCode !== undefined ? { status: error.statusCode } : {}),
              }
            : undefined,
      },
    );
  }

  async #loadSdk(): Promise<{ module: OpenAIModule; client: OpenAI }> {
    if (!this.#sdk) {
      const module = await loadOpenAI();
      this.#sdk ??= { module, client: new module.default(this.#clientOptions) };
    }
    return this.#sdk;
  }

  #responseError(attempt: number, detail: string): ModelResponseError {
    return new ModelResponseError({
      provider: this.provider,
      modelId: this.modelId,
      attempts: attempt,
      detail,
    });
  }

  #toModelError(
    error: unknown,
    attempt: number,
    deadline: RequestDeadline,
    signal: AbortSignal | undefined,
    phase: "request" | "stream",
  ): unknown {
    if (ModelCallError.isInstance(error) || AbortedError.isInstance(error)) return error;
    if (signal?.aborted) return new AbortedError({ operation, cause: signal.reason });
    const identity = { provider: this.provider, modelId: this.modelId, attempts: attempt };
    // Only calls made through the client fail here, so the package is loaded by now.
    const { APIConnectionError, APIConnectionTimeoutError, APIError, APIUserAbortError } =
      this.#sdk!.module;
    if (deadline.timedOut || error instanceof APIConnectionTimeoutError) {
      return new ModelTimeoutError({ ...identity, timeoutMs: this.timeoutMs });
    }
    if (error instanceof SyntaxError) {
      return this.#responseError(
        attempt,
        phase === "stream" ? "a stream event is not valid JSON" : "the body is not valid JSON",
      );
    }
    if (error instanceof APIError && !(error instanceof APIUserAbortError)) {
      if (error instanceof APIConnectionError) {
        // The cause is the socket-level error; the openai wrapper adds nothing but a message.
        return new ModelCallError({
          ...identity,
          kind: "network",
          retryable: true,
          upstreamMessage: messageChain(error.cause ?? error),
          cause: error.cause,
        });
      }
      const statusCode = error.status;
      const retryAfterMs = parseRetryAfter(error.headers);
      // The openai error is not kept as the cause: its body may echo request details.
      return new ModelCallError({
        ...identity,
        kind: "http",
        ...(statusCode !== undefined ? { statusCode } : {}),
        retryable: statusCode !== undefined && retryableStatuses.has(statusCode),
        upstreamMessage: this.#errorBodies.describe(error),
        ...(retryAfterMs !== undefined ? { retryAfterMs } : {}),
      });
    }
    return new ModelCallError({
      ...identity,
      kind: "network",
      retryable: true,
      upstreamMessage: `${phase === "stream" ? "stream cut off: " : ""}${messageChain(error)}`,
      cause: error,
    });
  }
}
