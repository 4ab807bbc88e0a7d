import { inspect } from "node:util";
import { registerSecret } from "@framework/core";
import { describe, expect, it } from "vitest";
import { PostgresFencedError } from "./postgres-fenced-error.js";
import { PostgresSaverError } from "./postgres-saver-error.js";
import { PostgresSchemaVersionError } from "./postgres-schema-version-error.js";
import { PostgresStatementTimeoutError } from "./postgres-statement-timeout-error.js";
import { PostgresUnavailableError } from "./postgres-unavailable-error.js";

const password = "errors-test-password-71b2c3";
registerSecret(password);
// What a careless caller might pass in any text field: a connection string and the bare password.
const leak = `postgres://app:${password}@db:5432/app (${password})`;

const errors = [
  new PostgresFencedError({ threadId: leak, seq: 3, table: leak }),
  new PostgresSaverError({ operation: leak, message: leak, code: leak }),
  new PostgresSchemaVersionError({ schema: leak, found: 2, supported: 1 }),
  new PostgresStatementTimeoutError({ operation: leak, message: leak, timeoutMs: 10 }),
  new PostgresUnavailableError({ operation: leak, message: leak, code: leak }),
];

describe("the package's errors", () => {
  it.each(errors.map((error) => [error.name, error] as const))(
    "%s carries its fields with a registered password redacted",
    (_name, error) => {
      const fields = Object.entries(error).filter(([key]) => key !== "name" && key !== "cause");
      expect(fields.length).toBeGreaterThan(0);
      for (const [key, value] of fields) {
        expect(String(value), key).not.toContain(password);
      }
      expect(inspect(error)).not.toContain(password);
      for (const [key] of fields) {
        expect(Object.getOwnPropertyDescriptor(error, key)?.writable, key).toBe(false);
      }
    },
  );

  it("keep numbers and codes as given", () => {
    expect(new PostgresFencedError({ threadId: "t", seq: 3, table: "leases" })).toMatchObject({
      threadId: "t",
      seq: 3,
      table: "leases",
    });
    expect(new PostgresSaverError({ operation: "put", message: "m", code: "28P01" })).toMatchObject(
      { operation: "put", code: "28P01" },
    );
  });
});
