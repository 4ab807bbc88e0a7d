import { existsSync, readFileSync } from "node:fs";
import { dirname, join } from "node:path";

/** A real server the integration tests run against. */
export type TestService = "postgres" | "redis";

const variables: Record<TestService, string> = {
  postgres: "FRAMEWORK_TEST_POSTGRES_URL",
  redis: "FRAMEWORK_TEST_REDIS_URL",
};

/** Where `scripts/services.sh start` writes the URLs of the servers it started. */
const servicesFile = join(".services", "env.json");

function fromServicesFile(variable: string, cwd: string): string | undefined {
  for (let dir = cwd; ; dir = dirname(dir)) {
    const file = join(dir, servicesFile);
    if (existsSync(file)) {
      const urls = JSON.parse(readFileSync(file, "utf8")) as Record<string, string | undefined>;
      return urls[variable] || undefined;
    }
    if (dirname(dir) === dir) return undefined;
  }
}

/**
 * The URL of a real `service` for integration tests: `FRAMEWORK_TEST_POSTGRES_URL` /
 * `FRAMEWORK_TEST_REDIS_URL`, else what `pnpm services:start` recorded in `.services/env.json`
 * (searched from `cwd` upwards). `undefined` when neither says, so a developer without the
 * servers skips those tests; under `CI=true` a missing server throws instead, so CI never
 * passes by skipping them silently.
 */
export function testServiceUrl(
  service: TestService,
  cwd: string = process.cwd(),
): string | undefined {
  const variable = variables[service];
  const url = process.env[variable] || fromServicesFile(variable, cwd);
  if (url) return url;
  if (process.env.CI === "true" || process.env.CI === "1") {
    throw new Error(
      `${variable} is not set and no ${service} server was started: run \`pnpm services:start\` before the tests (CI must not skip them).`,
    );
  }
  return undefined;
}
