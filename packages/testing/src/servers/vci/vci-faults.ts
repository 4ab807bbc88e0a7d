import type { FakeResponse } from "../../server/fake-server.js";

/** The path of VCI's historical price endpoint, under `VCI_API_URL`. */
export const vciGapChartPath = "/api/chart/OHLCChart/gap-chart";

/**
 * VCI's error body, Spring Boot's default shape: `{ timestamp, status, error, path }`.
 */
export function vciErrorBody(
  status: number,
  error: string,
  path: string,
): { timestamp: string; status: number; error: string; path: string } {
  return { timestamp: new Date().toISOString(), status, error, path };
}

/** Error answers of VCI's gap-chart endpoint, for `injectFaults` or `setFaultRate`. */
export const vciFaults = {
  /** HTTP 429, as VCI answers bursts of requests. */
  rateLimited: (): FakeResponse => ({
    status: 429,
    body: vciErrorBody(429, "Too Many Requests", vciGapChartPath),
  }),
  /** HTTP 403 with an HTML page, as the firewall answers requests from blocked addresses. */
  forbidden: (): FakeResponse => ({
    status: 403,
    headers: { "content-type": "text/html; charset=utf-8" },
    body: "<html><head><title>403 Forbidden</title></head><body><center><h1>403 Forbidden</h1></center></body></html>",
  }),
  /** HTTP 502 from the gateway in front of the service. */
  badGateway: (): FakeResponse => ({
    status: 502,
    headers: { "content-type": "text/html; charset=utf-8" },
    body: "<html><head><title>502 Bad Gateway</title></head><body><center><h1>502 Bad Gateway</h1></center></body></html>",
  }),
};
