import { randomUUID } from "node:crypto";
import { PostgresSaver } from "@framework/checkpoint-postgres";
import { testServiceUrl } from "@framework/testing";
import pg from "pg";

/**
 * The test server's URL (`pnpm services:start`), or `undefined` outside CI when none runs;
 * under CI a missing server throws, so these tests never pass by skipping.
 */
export const postgresUrl = testServiceUrl("postgres");

if (postgresUrl === undefined) {
  console.warn(
    "@framework/server-postgres: no Postgres server (run `pnpm services:start`): skipping its tests",
  );
}

/** A schema name no other test (in this file or a parallel one) uses. */
export function uniqueSchema(label: string): string {
  return `t_${label}_${randomUUID().replaceAll("-", "").slice(0, 12)}`;
}

/** A saver on `schema` of the test server. */
export function testSaver(schema: string): PostgresSaver {
  return new PostgresSaver({ connectionString: postgresUrl!, schema, maxConnections: 8 });
}

/** Runs one statement on its own connection to the test server. */
export async function sql(text: string, values: unknown[] = []): Promise<pg.QueryResult> {
  const client = new pg.Client({ connectionString: postgresUrl! });
  await client.connect();
  try {
    return await client.query(text, values);
  } finally {
    await client.end();
  }
}

/** Drops a test's schema and everything in it. */
export async function dropSchema(schema: string): Promise<void> {
  await sql(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
}
