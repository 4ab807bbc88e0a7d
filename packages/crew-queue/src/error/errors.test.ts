import { inspect } from "node:util";
import { registerSecret } from "@framework/core";
import { describe, expect, it } from "vitest";
import { LeaseLostError } from "./lease-lost-error.js";
import { RunCancelledError } from "./run-cancelled-error.js";
import { RunFailedError } from "./run-failed-error.js";
import { RunNotFoundError } from "./run-not-found-error.js";
import { RunNotResumableError } from "./run-not-resumable-error.js";
import { RunTimeoutError } from "./run-timeout-error.js";
import { ThreadBusyError } from "./thread-busy-error.js";
import { UnknownCrewError } from "./unknown-crew-error.js";

const password = "queue-errors-password-4a5b6c";
registerSecret(password);
// A node's failure as a worker records it: it may quote the connection string it failed on.
const leak = `connect to postgres://app:${password}@db:5432/app failed (${password})`;

const errors = [
  new LeaseLostError({ runId: leak, leaseEpoch: 2 }),
  new RunCancelledError({ runId: leak, threadId: leak }),
  new RunFailedError({ runId: "r", threadId: "t", error: leak }),
  new RunNotFoundError({ runId: leak }),
  new RunNotResumableError({ runId: leak, status: "done" }),
  new RunTimeoutError({ runId: leak, timeoutMs: 5, status: "running" }),
  new ThreadBusyError({ threadId: leak, activeRunId: leak }),
  new UnknownCrewError({ crew: leak, known: [leak] }),
];

describe("the package's errors", () => {
  it.each(errors.map((error) => [error.name, error] as const))(
    "%s carries its fields read-only with a registered password redacted",
    (_name, error) => {
      const fields = Object.entries(error).filter(([key]) => key !== "name" && key !== "cause");
      expect(fields.length).toBeGreaterThan(0);
      for (const [key, value] of fields) {
        expect(JSON.stringify(value), key).not.toContain(password);
        expect(Object.getOwnPropertyDescriptor(error, key)?.writable, key).toBe(false);
      }
      expect(inspect(error)).not.toContain(password);
    },
  );

  it("keep what holds no secret as given", () => {
    expect(new RunFailedError({ runId: "r", threadId: "t", error: "boom" })).toMatchObject({
      runId: "r",
      threadId: "t",
      error: "boom",
    });
    expect(new UnknownCrewError({ crew: "c", known: ["a", "b"] }).known).toEqual(["a", "b"]);
  });
});
