import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Redis } from "ioredis";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { testServices } from "./test-services.js";
import { uniqueName } from "./unique-name.js";

const services = testServices("@framework/testing", ["postgres", "redis"]);

describe.skipIf(services.missing)("testServices on the real servers", () => {
  it("runs a statement with values, answering its rows and their count", async () => {
    const { rows, rowCount } = await services.sql<{ sum: number }>(
      "SELECT $1::int + $2::int AS sum",
      [1, 2],
    );
    expect(rows).toEqual([{ sum: 3 }]);
    expect(rowCount).toBe(1);
  });

  it("drops a schema with everything in it, and one that is gone without a word", async () => {
    const schema = uniqueName("drop");
    await services.sql(`CREATE SCHEMA "${schema}"`);
    await services.sql(`CREATE TABLE "${schema}".kept (x int)`);
    await services.dropSchema(schema);
    const { rows } = await services.sql(
      "SELECT 1 FROM information_schema.schemata WHERE schema_name = $1",
      [schema],
    );
    expect(rows).toEqual([]);
    await expect(services.dropSchema(schema)).resolves.toBeUndefined();
  });

  it("loses every key of one queue, past one page of SCAN, and none of another queue", async () => {
    const [lost, kept] = [uniqueName("lost"), uniqueName("kept")];
    const redis = new Redis(services.redisUrl!);
    try {
      const writes = redis.pipeline();
      for (let i = 0; i < 1_200; i += 1) writes.set(`bull:${lost}:${i}`, "x");
      writes.set(`bull:${kept}:id`, "1");
      await writes.exec();
      expect(await services.loseQueueKeys(lost)).toBe(1_200);
      expect(await redis.keys(`bull:${lost}:*`)).toEqual([]);
      expect(await redis.get(`bull:${kept}:id`)).toBe("1");
    } finally {
      await redis.del(`bull:${kept}:id`);
      redis.disconnect();
    }
  });
});

describe("testServices without the servers", () => {
  let dir: string;
  beforeEach(() => {
    // No variable, and no `.services/env.json` above this directory.
    dir = mkdtempSync(join(tmpdir(), "test-services-"));
    vi.stubEnv("FRAMEWORK_TEST_POSTGRES_URL", "");
    vi.stubEnv("FRAMEWORK_TEST_REDIS_URL", "");
    vi.stubEnv("CI", "");
  });
  afterEach(() => {
    vi.unstubAllEnvs();
    vi.restoreAllMocks();
    rmSync(dir, { recursive: true, force: true });
  });

  it("says so once, naming the suite, and its helpers throw when called", async () => {
    const warn = vi.spyOn(console, "warn").mockImplementation(() => undefined);
    const missing = testServices("@framework/x", ["postgres", "redis"], dir);
    expect(missing).toMatchObject({ postgresUrl: undefined, redisUrl: undefined, missing: true });
    expect(warn.mock.calls).toEqual([
      ["@framework/x: no Postgres or Redis server (run `pnpm services:start`): skipping its tests"],
    ]);
    await expect(missing.sql("SELECT 1")).rejects.toThrow("@framework/x: no Postgres server runs");
    await expect(missing.dropSchema("s")).rejects.toThrow("no Postgres server runs");
    await expect(missing.loseQueueKeys("q")).rejects.toThrow("@framework/x: no Redis server runs");
  });

  it("throws under CI instead, so CI never passes by skipping", () => {
    vi.stubEnv("CI", "true");
    expect(() => testServices("@framework/x", ["redis"], dir)).toThrow(/pnpm services:start/);
  });

  it("needs only the servers it was asked for, and refuses the others' helpers", async () => {
    const warn = vi.spyOn(console, "warn").mockImplementation(() => undefined);
    vi.stubEnv("FRAMEWORK_TEST_POSTGRES_URL", "postgres://postgres@127.0.0.1:1/postgres");
    const postgresOnly = testServices("@framework/x", ["postgres"], dir);
    expect(postgresOnly).toMatchObject({
      postgresUrl: "postgres://postgres@127.0.0.1:1/postgres",
      redisUrl: undefined,
      missing: false,
    });
    expect(warn).not.toHaveBeenCalled();
    await expect(postgresOnly.loseQueueKeys("q")).rejects.toThrow(
      "@framework/x: testServices was not asked for redis",
    );
  });
});
