import { connect } from "node:net";
import { registerSecret } from "@framework/core";
import { testServiceUrl } from "@framework/testing";

/** A server some benchmarks measure against. */
export type BenchService = "postgres" | "redis";

/** Where each server is, as configured; a service left out is not configured. */
export type ServiceUrls = Readonly<Partial<Record<BenchService, string>>>;

/** A server that answered (its URL), or why its rows are skipped. */
export type ServiceStatus = { readonly url: string } | { readonly skipped: string };

/** What {@link checkServices} found for each service it was asked about. */
export type ServiceStatuses = Readonly<Partial<Record<BenchService, ServiceStatus>>>;

const names: Record<BenchService, string> = { postgres: "Postgres", redis: "Redis" };
const defaultPorts: Record<BenchService, number> = { postgres: 5432, redis: 6379 };
const variables: Record<BenchService, string> = {
  postgres: "FRAMEWORK_TEST_POSTGRES_URL",
  redis: "FRAMEWORK_TEST_REDIS_URL",
};

/**
 * The servers' URLs as the integration tests find them (`FRAMEWORK_TEST_*_URL`, else what
 * `pnpm services:start` recorded). Under `CI=true` the tests' lookup throws for a missing
 * server so CI cannot pass by skipping; a benchmark skips instead, with the reason, in CI too.
 */
export function configuredServiceUrls(): ServiceUrls {
  const urls: Partial<Record<BenchService, string>> = {};
  for (const service of Object.keys(names) as BenchService[]) {
    let url: string | undefined;
    try {
      url = testServiceUrl(service);
    } catch {
      url = undefined;
    }
    if (url) urls[service] = url;
  }
  return urls;
}

/** Host and port of `url`, or `undefined` when it is not a URL. */
function endpoint(url: string, service: BenchService): { host: string; port: number } | undefined {
  try {
    const parsed = new URL(url);
    // Its password must not reach a log line or a row, even echoed by a driver's error.
    registerSecret(decodeURIComponent(parsed.password));
    return {
      host: parsed.hostname.replace(/^\[|\]$/g, ""),
      port: Number(parsed.port) || defaultPorts[service],
    };
  } catch {
    return undefined;
  }
}

/** Resolves to `undefined` once a TCP connection to `host:port` opens, else to why not. */
function reach(host: string, port: number, timeoutMs: number): Promise<string | undefined> {
  return new Promise((resolve) => {
    const socket = connect({ host, port });
    const done = (reason: string | undefined) => {
      socket.destroy();
      resolve(reason);
    };
    socket.setTimeout(timeoutMs, () => done(`no answer within ${timeoutMs} ms`));
    socket.once("connect", () => done(undefined));
    socket.once("error", (error: NodeJS.ErrnoException) =>
      done(error.code === "ECONNREFUSED" ? "connection refused" : (error.code ?? error.message)),
    );
  });
}

/**
 * Checks up front, in a second or two, whether each of `services` can be reached at its
 * configured URL (a TCP connection to its host and port), so a missing server costs its rows
 * a reason instead of the whole run a late failure. The reasons name the host and port only,
 * never the URL's credentials.
 */
export async function checkServices(
  services: readonly BenchService[],
  urls: ServiceUrls,
  timeoutMs = 2000,
): Promise<ServiceStatuses> {
  const checked = await Promise.all(
    [...new Set(services)].map(async (service): Promise<[BenchService, ServiceStatus]> => {
      const name = names[service];
      const url = urls[service];
      if (!url) {
        return [
          service,
          {
            skipped:
              `no ${name} server configured: ${variables[service]} is unset and ` +
              "`pnpm services:start` has not written .services/env.json",
          },
        ];
      }
      const at = endpoint(url, service);
      if (!at) return [service, { skipped: `the ${name} URL is not a valid URL` }];
      const failure = await reach(at.host, at.port, timeoutMs);
      return [
        service,
        failure ? { skipped: `no ${name} server at ${at.host}:${at.port} (${failure})` } : { url },
      ];
    }),
  );
  return Object.fromEntries(checked);
}
