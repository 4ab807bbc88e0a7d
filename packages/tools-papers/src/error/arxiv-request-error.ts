import { FrameworkError } from "@framework/core";

const name = "ArxivRequestError";
const marker = `framework.error.${name}`;
const symbol = Symbol.for(marker);

/** Why a search of arXiv gave no usable feed. */
export type ArxivFailureReason =
  /** `ARXIV_API_URL` is not a usable URL. */
  | "configuration"
  /** arXiv answered with its error feed (an entry titled "Error"), e.g. for a malformed query. */
  | "rejected"
  /** HTTP 429: arXiv asks clients to slow down. */
  | "rate-limited"
  /** Any other HTTP status that is not a success. */
  | "http-status"
  /** No complete answer within the time limit. */
  | "timeout"
  /** The connection failed (refused, reset, DNS, TLS). */
  | "network"
  /** The body is not an Atom feed. */
  | "malformed-response";

/**
 * A search of arXiv failed. `paper_research` turns it into the `error` text of its result;
 * it never reaches the agent as a thrown error.
 */
export class ArxivRequestError extends FrameworkError {
  private readonly [symbol] = true;

  /** How the search failed. */
  declare readonly reason: ArxivFailureReason;
  /** The HTTP status, when arXiv answered. */
  declare readonly status?: number;

  constructor({
    reason,
    message,
    status,
    cause,
  }: {
    reason: ArxivFailureReason;
    message: string;
    status?: number;
    cause?: unknown;
  }) {
    super({ name, message, cause, fields: { reason, status } });
  }

  static override isInstance(error: unknown): error is ArxivRequestError {
    return FrameworkError.hasMarker(error, marker);
  }
}
