import { redactSecrets } from "../log/redact.js";
import { FrameworkError } from "./framework-error.js";

const name = "ModelCallError";
const marker = `framework.error.${name}`;
const symbol = Symbol.for(marker);

/**
 * What went wrong in a model call:
 * - `http`: the provider answered with an error status (`statusCode` set), or reported an
 *   error inside a stream;
 * - `network`: the connection failed or dropped, including a stream cut off midway;
 * - `timeout`: no answer within the timeout ({@link ModelTimeoutError});
 * - `invalid_response`: the body is not a chat completion ({@link ModelResponseError}).
 */
export type ModelCallFailure = "http" | "network" | "timeout" | "invalid_response";

/** Fields of a {@link ModelCallError}. */
export interface ModelCallErrorOptions {
  kind: ModelCallFailure;
  /** The chat model's `provider`, e.g. `"openai-compatible"`. */
  provider: string;
  /** The model name sent to the provider. */
  modelId: string;
  /** HTTP status of the provider's answer, when there was one. */
  statusCode?: number;
  /** True when the failure is transient, so a later call may succeed. */
  retryable: boolean;
  /** How many requests were made, the failing one included. */
  attempts: number;
  /** A short description from the provider or the network layer. Secrets are redacted. */
  upstreamMessage?: string;
  /** The wait the provider asked for (Retry-After), in milliseconds. */
  retryAfterMs?: number;
  /** The low-level failure (never one that holds request headers). */
  cause?: unknown;
}

const maxUpstreamMessageLength = 300;

function shorten(text: string): string {
  const oneLine = redactSecrets(text).replace(/\s+/g, " ").trim();
  return oneLine.length > maxUpstreamMessageLength
    ? `${oneLine.slice(0, maxUpstreamMessageLength)}...`
    : oneLine;
}

function describe(options: ModelCallErrorOptions): string {
  const what =
    options.kind === "http"
      ? options.statusCode === undefined
        ? "the provider reported an error"
        : `HTTP ${options.statusCode}`
      : options.kind === "network"
        ? "connection error"
        : options.kind === "timeout"
          ? "timed out"
          : "invalid response";
  const tries = options.attempts === 1 ? "1 attempt" : `${options.attempts} attempts`;
  const detail = options.upstreamMessage ? `: ${shorten(options.upstreamMessage)}` : "";
  return `Chat completion with ${options.modelId} (${options.provider}) failed after ${tries}, ${what}${detail}`;
}

/**
 * A chat model call failed: an error status, a network failure, or retries used up. Its
 * message and fields never hold the API key or request headers. Subclasses:
 * {@link ModelTimeoutError} and {@link ModelResponseError}.
 */
export class ModelCallError extends FrameworkError {
  private readonly [symbol] = true;

  /** What went wrong; see {@link ModelCallFailure}. */
  declare readonly kind: ModelCallFailure;
  /** The chat model's `provider`. */
  declare readonly provider: string;
  /** The model name sent to the provider. */
  declare readonly modelId: string;
  /** HTTP status of the provider's answer, when there was one. */
  declare readonly statusCode?: number;
  /** True when the failure is transient, so a later call may succeed. */
  declare readonly retryable: boolean;
  /** How many requests were made, the failing one included. */
  declare readonly attempts: number;
  /** A short, one-line, redacted description from the provider or the network layer. */
  declare readonly upstreamMessage?: string;
  /** The wait the provider asked for (Retry-After), in milliseconds. */
  declare readonly retryAfterMs?: number;

  /**
   * @param options - the failure's fields; the message is built from them.
   * @param errorName - the subclass's name; subclasses pass their own.
   * @param subclassFields - a subclass's own structured fields, redacted like these.
   */
  constructor(
    options: ModelCallErrorOptions,
    errorName: string = name,
    subclassFields: Readonly<Record<string, unknown>> = {},
  ) {
    const { kind, provider, modelId, statusCode, retryable, attempts, retryAfterMs } = options;
    const upstreamMessage =
      options.upstreamMessage === undefined ? undefined : shorten(options.upstreamMessage);
    super({
      name: errorName,
      message: describe(options),
      cause: options.cause,
      fields: {
        ...subclassFields,
        kind,
        provider,
        modelId,
        statusCode,
        retryable,
        attempts,
        upstreamMessage,
        retryAfterMs,
      },
    });
  }

  static override isInstance(error: unknown): error is ModelCallError {
    return FrameworkError.hasMarker(error, marker);
  }
}
