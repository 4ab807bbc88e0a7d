import { FrameworkError, type Logger, redactSecrets } from "@framework/core";
import { CheckpointNotFoundError } from "@framework/graph";
import { HTTPException } from "hono/http-exception";
import { MalformedRequestError } from "../error/malformed-request-error.js";
import type { RequestIssue } from "../error/request-issue.js";
import { RequestTooLargeError } from "../error/request-too-large-error.js";
import { ResourceNotFoundError } from "../error/resource-not-found-error.js";

/** The JSON body of every error answer: the failure's kind, a message, and where it lies. */
export interface ErrorBody {
  error: { type: string; message: string; issues?: readonly RequestIssue[] };
}

/** An error answer: its status and body. Never a stack trace, never a secret. */
export interface ErrorAnswer {
  status: number;
  body: ErrorBody;
}

/**
 * How a failure is answered. The server's own errors carry their status; a checkpoint that is
 * not the thread's is a 404; anything else is a 500 whose details go to the log, not the
 * client.
 */
export function errorAnswer(error: unknown, logger: Logger, limitBytes: number): ErrorAnswer {
  const known = knownError(error, limitBytes);
  if (known) {
    const { status, name, message } = known;
    // The server's own trouble: the client is told only that, the log gets why.
    if (status >= 500) {
      const cause = known.cause === undefined ? "" : ` (${describeFailure(known.cause)})`;
      logger.error(`Request failed: ${name}: ${message}${cause}`);
    }
    const issues = (known as { issues?: readonly RequestIssue[] }).issues;
    return { status, body: { error: { type: name, message, ...(issues ? { issues } : {}) } } };
  }
  logger.error(`Request failed: ${describeFailure(error)}`);
  return {
    status: 500,
    body: {
      error: { type: "InternalServerError", message: "The server failed to handle the request" },
    },
  };
}

function knownError(
  error: unknown,
  limitBytes: number,
): (FrameworkError & { status: number }) | undefined {
  if (CheckpointNotFoundError.isInstance(error)) {
    const checkpointId = (error as { checkpointId?: string }).checkpointId;
    return new ResourceNotFoundError({ resource: "checkpoint", id: checkpointId ?? "" });
  }
  if (error instanceof HTTPException) {
    if (error.status === 413) return new RequestTooLargeError({ limitBytes });
    if (error.status === 400) return new MalformedRequestError({ reason: error.message });
    return undefined;
  }
  if (
    FrameworkError.isInstance(error) &&
    typeof (error as { status?: unknown }).status === "number"
  ) {
    return error as FrameworkError & { status: number };
  }
  return undefined;
}

/** A failure for the log, secrets redacted. */
function describeFailure(error: unknown): string {
  const detail = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
  return redactSecrets(detail);
}
