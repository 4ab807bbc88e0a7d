import { randomUUID } from "node:crypto";
import { PostgresSaver } from "@framework/checkpoint-postgres";
import { internalsOf } from "@framework/checkpoint-postgres/internal";
import { testServiceUrl } from "@framework/testing";
import { Redis } from "ioredis";
import pg from "pg";

/**
 * The servers `pnpm services:start` started, or `undefined` outside CI when one is missing;
 * under CI a missing server throws, so these tests never pass by skipping.
 */
export const postgresUrl = testServiceUrl("postgres");
export const redisUrl = testServiceUrl("redis");
export const servicesMissing = postgresUrl === undefined || redisUrl === undefined;

if (servicesMissing) {
  console.warn(
    "@framework/crew-queue: no Postgres or Redis server (run `pnpm services:start`): skipping its tests",
  );
}

/** A name no other test (in this file or a parallel one) uses: a schema, a queue. */
export function uniqueName(label: string): string {
  return `t_${label}_${randomUUID().replaceAll("-", "").slice(0, 12)}`;
}

/** A saver on its own schema, with the test crews' side-effect table. */
export async function testSaver(schema: string): Promise<PostgresSaver> {
  const saver = new PostgresSaver({ connectionString: postgresUrl!, schema, maxConnections: 20 });
  await saver.setup();
  await internalsOf(saver).query(
    "effects",
    `CREATE TABLE IF NOT EXISTS "${schema}".effects (
       key text NOT NULL, node text NOT NULL, run_id text NOT NULL, worker text NOT NULL,
       at timestamptz NOT NULL DEFAULT clock_timestamp())`,
  );
  return saver;
}

/** Drops a test's schema. */
export async function dropSchema(schema: string): Promise<void> {
  const client = new pg.Client({ connectionString: postgresUrl! });
  await client.connect();
  try {
    await client.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
  } finally {
    await client.end();
  }
}

/** Deletes every Redis key of one BullMQ queue: what a flush or a restart loses of it. */
export async function loseQueueKeys(queueName: string): Promise<number> {
  const redis = new Redis(redisUrl!);
  try {
    let deleted = 0;
    let cursor = "0";
    do {
      const [next, keys] = await redis.scan(cursor, "MATCH", `bull:${queueName}:*`, "COUNT", 500);
      cursor = next;
      if (keys.length > 0) deleted += await redis.del(...keys);
    } while (cursor !== "0");
    return deleted;
  } finally {
    redis.disconnect();
  }
}

/** One row per node run a test crew did: `key` is the node's idempotency key. */
export interface Effect {
  key: string;
  node: string;
  runId: string;
  worker: string;
}

/** The side effects the test crews recorded in `schema`, oldest first. */
export async function effectsOf(saver: PostgresSaver, runId?: string): Promise<Effect[]> {
  const rows = await internalsOf(saver).query<{
    key: string;
    node: string;
    run_id: string;
    worker: string;
  }>(
    "effects",
    `SELECT key, node, run_id, worker FROM "${saver.schema}".effects
     ${runId === undefined ? "" : "WHERE run_id = $1"} ORDER BY at`,
    runId === undefined ? [] : [runId],
  );
  return rows.map((row) => ({
    key: row.key,
    node: row.node,
    runId: row.run_id,
    worker: row.worker,
  }));
}
