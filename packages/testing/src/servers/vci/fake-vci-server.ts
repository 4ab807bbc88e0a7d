import {
  type FakeResponse,
  type FakeServer,
  type StartFakeServerOptions,
  startFakeServer,
} from "../../server/fake-server.js";
import { vciErrorBody, vciGapChartPath } from "./vci-faults.js";
import {
  type FakeVciMarketOptions,
  generateFakeVciSeries,
  type VciTimeFrame,
  vciTimeFrames,
} from "./vci-price-series.js";

// Re-exported: the server's tests and the package index take it from here.
export { vciGapChartPath };

/** Options of {@link startFakeVciServer}. */
export interface StartFakeVciServerOptions extends StartFakeServerOptions, FakeVciMarketOptions {}

// A request for more bars than this is answered with what fits; VCI caps its answers too.
const maxCountBack = 50_000;

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function isTimeFrame(value: unknown): value is VciTimeFrame {
  return typeof value === "string" && (vciTimeFrames as readonly string[]).includes(value);
}

function isPositiveInteger(value: unknown): value is number {
  return typeof value === "number" && Number.isInteger(value) && value > 0;
}

/**
 * Starts a fake of VCI's (Vietcap's) historical price endpoint, the one vnstock's VCI source
 * calls: `POST /api/chart/OHLCChart/gap-chart` with the JSON body
 * `{ timeFrame: "ONE_DAY" | "ONE_HOUR" | "ONE_MINUTE", symbols: ["FPT"], to: <unix seconds>,
 * countBack: <bars> }`. It answers with one entry per known symbol, each a set of parallel
 * arrays `{ symbol, o, h, l, c, v, t, accumulatedVolume, accumulatedValue, minBatchTruncTime }`
 * holding the last `countBack` bars before `to` (see {@link generateFakeVciSeries}); stock
 * prices are in VND, index values in points. Unknown symbols are left out, so a request
 * naming none the fake knows gets `[]`, as VCI answers. A body that is not such an object
 * gets HTTP 400 and another path HTTP 404, in Spring Boot's error shape. Rate limits and
 * blocks come from `injectFaults` (see `vciFaults`).
 *
 * @example
 * const vci = await startFakeVciServer();
 * process.env.VCI_API_URL = vci.url;
 */
export function startFakeVciServer(options: StartFakeVciServerOptions = {}): Promise<FakeServer> {
  return startFakeServer((request): FakeResponse => {
    if (request.path !== vciGapChartPath) {
      return { status: 404, body: vciErrorBody(404, "Not Found", request.path) };
    }
    if (request.method !== "POST") {
      return {
        status: 405,
        headers: { allow: "POST" },
        body: vciErrorBody(405, "Method Not Allowed", request.path),
      };
    }
    const body = request.json;
    const valid =
      isRecord(body) &&
      isTimeFrame(body.timeFrame) &&
      Array.isArray(body.symbols) &&
      body.symbols.length > 0 &&
      body.symbols.every((symbol) => typeof symbol === "string") &&
      isPositiveInteger(body.to) &&
      isPositiveInteger(body.countBack);
    if (!valid) {
      return { status: 400, body: vciErrorBody(400, "Bad Request", request.path) };
    }
    const chart = {
      timeFrame: body.timeFrame as VciTimeFrame,
      to: body.to as number,
      countBack: Math.min(body.countBack as number, maxCountBack),
    };
    const entries = (body.symbols as string[]).flatMap(
      (symbol) => generateFakeVciSeries(symbol, chart, options) ?? [],
    );
    return { body: entries };
  }, options);
}
