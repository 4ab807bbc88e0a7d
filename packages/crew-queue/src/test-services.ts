import { PostgresSaver } from "@framework/checkpoint-postgres";
import { internalsOf } from "@framework/checkpoint-postgres/internal";
import { testServices } from "@framework/testing/services";

/**
 * The servers `pnpm services:start` started, or `undefined` outside CI when one is missing
 * (`servicesMissing`: the tests skip); under CI a missing server throws, so these tests never
 * pass by skipping.
 */
export const {
  postgresUrl,
  redisUrl,
  missing: servicesMissing,
  dropSchema,
  loseQueueKeys,
} = testServices("@framework/crew-queue", ["postgres", "redis"]);

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
