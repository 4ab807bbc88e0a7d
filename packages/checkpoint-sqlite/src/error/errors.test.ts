import { inspect } from "node:util";
import { registerSecret } from "@framework/core";
import { describe, expect, it } from "vitest";
import { SqliteBusyError } from "./sqlite-busy-error.js";
import { SqliteSaverError } from "./sqlite-saver-error.js";
import { SqliteSchemaVersionError } from "./sqlite-schema-version-error.js";

const token = "sqlite-test-token-9d8e7f";
registerSecret(token);
// A database path that names a tenant by its token, as a careless deployment might.
const path = `/srv/tenants/${token}/checkpoints.sqlite`;

const errors = [
  new SqliteBusyError({ path, operation: "put", timeoutMs: 5 }),
  new SqliteSaverError({ path, operation: "open", code: "SQLITE_NOTADB", cause: new Error(path) }),
  new SqliteSchemaVersionError({ path, found: 2, supported: 1 }),
];

describe("the package's errors", () => {
  it.each(errors.map((error) => [error.name, error] as const))(
    "%s carries its fields with a registered secret redacted",
    (_name, error) => {
      expect(error.path).toBe("/srv/tenants/[REDACTED]/checkpoints.sqlite");
      expect(inspect(error)).not.toContain(token);
      expect(Object.getOwnPropertyDescriptor(error, "path")?.writable).toBe(false);
    },
  );

  it("keep the other fields as given", () => {
    expect(new SqliteBusyError({ path: "a.db", operation: "put", timeoutMs: 5 })).toMatchObject({
      path: "a.db",
      operation: "put",
      timeoutMs: 5,
    });
    expect(
      new SqliteSaverError({ path: "a.db", operation: "open", code: "SQLITE_NOTADB" }),
    ).toMatchObject({ code: "SQLITE_NOTADB" });
  });
});
