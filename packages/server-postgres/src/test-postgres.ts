import { PostgresSaver } from "@framework/checkpoint-postgres";
import { testServices } from "@framework/testing/services";

/**
 * The test server's URL (`pnpm services:start`), or `undefined` outside CI when none runs (the
 * tests skip); under CI a missing server throws, so these tests never pass by skipping.
 */
export const { postgresUrl, sql, dropSchema } = testServices("@framework/server-postgres", [
  "postgres",
]);

/** A saver on `schema` of the test server. */
export function testSaver(schema: string): PostgresSaver {
  return new PostgresSaver({ connectionString: postgresUrl!, schema, maxConnections: 8 });
}
