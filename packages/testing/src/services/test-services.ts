import { type TestService, testServiceUrl } from "./test-service-url.js";

/** A row as node-postgres returns it: its columns by name. */
export type SqlRow = Record<string, unknown>;

/** What {@link TestServices.sql} answers. */
export interface SqlResult<Row extends SqlRow = SqlRow> {
  readonly rows: Row[];
  /** How many rows the statement returned or changed; `null` for one that counts none. */
  readonly rowCount: number | null;
}

/** The real servers a test suite runs against, and what its tests do on them. */
export interface TestServices {
  /** The Postgres server's URL; `undefined` when none runs or the suite did not ask for it. */
  readonly postgresUrl: string | undefined;
  /** The Redis server's URL; `undefined` when none runs or the suite did not ask for it. */
  readonly redisUrl: string | undefined;
  /** True when a server the suite asked for does not run: skip its tests with `describe.skipIf`. */
  readonly missing: boolean;
  /** Runs one statement on a connection of its own to the Postgres server (needs `pg`). */
  sql<Row extends SqlRow = SqlRow>(
    text: string,
    values?: readonly unknown[],
  ): Promise<SqlResult<Row>>;
  /** Drops a test's schema and everything in it, if it exists (needs `pg`). */
  dropSchema(schema: string): Promise<void>;
  /**
   * Deletes every Redis key of one BullMQ queue, as a flush or a restart without persistence
   * loses them, and answers how many it deleted (needs `ioredis`).
   */
  loseQueueKeys(queueName: string): Promise<number>;
}

const serviceNames: Record<TestService, string> = { postgres: "Postgres", redis: "Redis" };

/** Loads an optional peer dependency on first use, so a suite installs only the one it uses. */
async function peer<Module>(name: string, load: () => Promise<Module>): Promise<Module> {
  try {
    return await load();
  } catch (error) {
    if ((error as { code?: unknown }).code !== "ERR_MODULE_NOT_FOUND") throw error;
    throw new Error(`@framework/testing/services needs the \`${name}\` package here: install it`, {
      cause: error,
    });
  }
}

/**
 * The real servers `services` of a test suite, found as {@link testServiceUrl} finds them,
 * with helpers bound to them. When one is missing it warns once, naming `label` (the suite's
 * package), and `missing` is true so the suite skips its tests; under `CI=true` a missing
 * server throws instead, so CI never passes by skipping. A helper whose server is missing
 * throws when called.
 */
export function testServices(
  label: string,
  services: readonly TestService[],
  cwd: string = process.cwd(),
): TestServices {
  const urls = new Map(services.map((service) => [service, testServiceUrl(service, cwd)]));
  const missing = [...urls.values()].some((url) => url === undefined);
  if (missing) {
    const names = services.map((service) => serviceNames[service]).join(" or ");
    console.warn(`${label}: no ${names} server (run \`pnpm services:start\`): skipping its tests`);
  }
  const urlOf = (service: TestService): string => {
    const url = urls.get(service);
    if (url !== undefined) return url;
    throw new Error(
      urls.has(service)
        ? `${label}: no ${serviceNames[service]} server runs (run \`pnpm services:start\`)`
        : `${label}: testServices was not asked for ${service}`,
    );
  };

  const sql = async <Row extends SqlRow = SqlRow>(
    text: string,
    values: readonly unknown[] = [],
  ): Promise<SqlResult<Row>> => {
    const connectionString = urlOf("postgres");
    const { default: pg } = await peer("pg", () => import("pg"));
    const client = new pg.Client({ connectionString });
    await client.connect();
    try {
      const result = await client.query<Row>(text, [...values]);
      return { rows: result.rows, rowCount: result.rowCount };
    } finally {
      await client.end();
    }
  };

  return {
    postgresUrl: urls.get("postgres"),
    redisUrl: urls.get("redis"),
    missing,
    sql,
    async dropSchema(schema) {
      await sql(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
    },
    async loseQueueKeys(queueName) {
      const url = urlOf("redis");
      const { Redis } = await peer("ioredis", () => import("ioredis"));
      const redis = new Redis(url);
      try {
        let deleted = 0;
        let cursor = "0";
        do {
          const [next, keys] = await redis.scan(
            cursor,
            "MATCH",
            `bull:${queueName}:*`,
            "COUNT",
            500,
          );
          cursor = next;
          if (keys.length > 0) deleted += await redis.del(...keys);
        } while (cursor !== "0");
        return deleted;
      } finally {
        redis.disconnect();
      }
    },
  };
}
