import { randomUUID } from "node:crypto";
import { testServiceUrl } from "@framework/testing";
import pg from "pg";

/**
 * The test server's URL (`pnpm services:start`), or `undefined` outside CI when none runs;
 * under CI a missing server throws, so these tests never pass by skipping.
 */
export const postgresUrl = testServiceUrl("postgres");

if (postgresUrl === undefined) {
  console.warn(
    "@framework/checkpoint-postgres: no Postgres server (run `pnpm services:start`): skipping its tests",
  );
}

/** A schema name no other test (in this file or a parallel one) uses. */
export function uniqueSchema(label: string): string {
  return `t_${label}_${randomUUID().replaceAll("-", "").slice(0, 12)}`;
}

/** Runs one statement on its own connection to `url`. */
export async function sql(
  url: string,
  text: string,
  values: unknown[] = [],
): Promise<pg.QueryResult> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return await client.query(text, values);
  } finally {
    await client.end();
  }
}

/** Drops a test's schema and everything in it. */
export function dropSchema(url: string, schema: string): Promise<pg.QueryResult> {
  return sql(url, `DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
}

/** `url` with `password` set, to prove it never shows. */
export function withPassword(url: string, password: string): string {
  const parsed = new URL(url);
  parsed.password = password;
  return parsed.toString();
}
