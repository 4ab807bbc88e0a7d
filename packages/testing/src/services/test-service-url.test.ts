import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { testServiceUrl } from "./test-service-url.js";

describe("testServiceUrl", () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), "service-url-"));
    vi.stubEnv("FRAMEWORK_TEST_POSTGRES_URL", "");
    vi.stubEnv("FRAMEWORK_TEST_REDIS_URL", "");
    vi.stubEnv("CI", "");
  });
  afterEach(() => {
    vi.unstubAllEnvs();
    rmSync(dir, { recursive: true, force: true });
  });

  it("prefers the environment variable", () => {
    vi.stubEnv("FRAMEWORK_TEST_REDIS_URL", "redis://127.0.0.1:6390");
    expect(testServiceUrl("redis", dir)).toBe("redis://127.0.0.1:6390");
  });

  it("reads what services:start recorded, searching upwards", () => {
    mkdirSync(join(dir, ".services"));
    mkdirSync(join(dir, "packages", "x"), { recursive: true });
    writeFileSync(
      join(dir, ".services", "env.json"),
      JSON.stringify({
        FRAMEWORK_TEST_POSTGRES_URL: "postgres://postgres@127.0.0.1:5439/postgres",
      }),
    );
    expect(testServiceUrl("postgres", join(dir, "packages", "x"))).toBe(
      "postgres://postgres@127.0.0.1:5439/postgres",
    );
    expect(testServiceUrl("redis", join(dir, "packages", "x"))).toBeUndefined();
  });

  it("throws under CI when the server is missing, instead of letting tests skip", () => {
    vi.stubEnv("CI", "true");
    expect(() => testServiceUrl("postgres", dir)).toThrow(/pnpm services:start/);
  });
});
