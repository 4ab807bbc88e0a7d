import { CheckpointConflictError } from "@framework/graph";
import { PostgresSaverError } from "../error/postgres-saver-error.js";
import { PostgresSchemaVersionError } from "../error/postgres-schema-version-error.js";
import { PostgresStatementTimeoutError } from "../error/postgres-statement-timeout-error.js";
import { PostgresUnavailableError } from "../error/postgres-unavailable-error.js";
import type { ConnectionRedactor } from "./connection-redactor.js";

/** Socket error codes meaning the server could not be reached or went away. */
const socketCodes = new Set([
  "ECONNREFUSED",
  "ECONNRESET",
  "EPIPE",
  "ETIMEDOUT",
  "EHOSTUNREACH",
  "ENETUNREACH",
  "ENOTFOUND",
  "EAI_AGAIN",
]);

/** What node-postgres says, without a code, when a connection dies or cannot be made. */
const connectionLostPattern =
  /Connection terminated|connection error|timeout exceeded when trying to connect|not queryable/i;

/** What a failed operation is about, for the typed error's message. */
export interface FailureContext {
  operation: string;
  /** `host:port/database`, when known. */
  target: string | undefined;
  redactor: ConnectionRedactor;
  statementTimeoutMs: number | undefined;
}

function errorMessage(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

function codeOf(error: unknown): string | undefined {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === "string" && code !== "" ? code : undefined;
}

function isUnavailable(error: unknown, code: string | undefined): boolean {
  if (code === undefined) return connectionLostPattern.test(errorMessage(error));
  // Class 08: connection exceptions; 57P01-03: the server is shutting down or starting up.
  return socketCodes.has(code) || code.startsWith("08") || /^57P0[123]$/.test(code);
}

/**
 * The error node-postgres threw, as this package's typed error: unreachable server, statement
 * timeout, or any other refusal, each with a message and a `cause` from which the password
 * has been removed. The package's own typed errors pass through unchanged.
 */
export function typedFailure(error: unknown, context: FailureContext): Error {
  if (
    CheckpointConflictError.isInstance(error) ||
    PostgresSchemaVersionError.isInstance(error) ||
    PostgresSaverError.isInstance(error)
  ) {
    return error;
  }
  const code = codeOf(error);
  const reason = context.redactor.redact(errorMessage(error) || code || "unknown error");
  const cause = new Error(reason);
  cause.name = error instanceof Error ? error.name : "Error";
  const where = context.target ? ` at ${context.target}` : "";
  const base = { operation: context.operation, cause, ...(code ? { code } : {}) };
  if (code === "57014" && /statement timeout/i.test(reason)) {
    return new PostgresStatementTimeoutError({
      operation: context.operation,
      cause,
      message:
        `Checkpoint ${context.operation}${where} exceeded the statement timeout` +
        `${context.statementTimeoutMs === undefined ? "" : ` of ${context.statementTimeoutMs} ms`}` +
        " and was rolled back",
      ...(context.statementTimeoutMs === undefined
        ? {}
        : { timeoutMs: context.statementTimeoutMs }),
    });
  }
  if (isUnavailable(error, code)) {
    return new PostgresUnavailableError({
      ...base,
      message: `Checkpoint database${where} unavailable during ${context.operation}: ${reason}`,
    });
  }
  return new PostgresSaverError({
    ...base,
    message: `Checkpoint database${where} refused ${context.operation}: ${reason}`,
  });
}
