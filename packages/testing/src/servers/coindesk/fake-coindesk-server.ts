import {
  type FakeServer,
  type StartFakeServerOptions,
  startFakeServer,
} from "../../server/fake-server.js";
import { coinDeskError, coinDeskFaults } from "./coindesk-faults.js";
import { builtInInstruments, builtInTick } from "./coindesk-ticks.js";

/** Options of {@link startFakeCoinDeskServer}. */
export interface StartFakeCoinDeskServerOptions extends StartFakeServerOptions {
  /**
   * When set, every request must carry this key, as `Authorization: Apikey <key>` or as the
   * `api_key` query parameter (both work on the real API); others get the real 401 envelope.
   * When unset, no key is needed, like the API's keyless tier.
   */
  apiKey?: string;
  /**
   * Field values merged over the built-in tick of each named instrument; a field set to
   * `undefined` is left out of the answer. Naming an instrument the fake does not know adds it.
   */
  ticks?: Record<string, Record<string, number | string | undefined>>;
}

/** A running fake CoinDesk data API. */
export interface FakeCoinDeskServer extends FakeServer {
  /** The key it requires, if any. */
  readonly apiKey: string | undefined;
}

const tickPath = "/index/cc/v1/latest/tick";
const markets: ReadonlySet<string> = new Set(["cadli", "ccix"]);

/**
 * Starts a fake of the CoinDesk data API's index tick endpoint
 * (`GET /index/cc/v1/latest/tick?market=cadli&instruments=BTC-USD&apply_mapping=true`) on
 * 127.0.0.1. It answers with the real shape, `{ Data: { "<instrument>": { TYPE, MARKET,
 * INSTRUMENT, VALUE, VALUE_FLAG, ..., CURRENT_DAY_CHANGE, MOVING_24_HOUR_HIGH, ... } }, Err: {} }`,
 * with fixed, self-consistent numbers for BTC-USD, ETH-USD and SOL-USD. Failures use the
 * real error envelope `{ Data: {}, Err: { type, message, other_info } }`: 401 for a missing or
 * wrong key (when `apiKey` is set), 404 for an unknown market or when no requested instrument
 * is known, 400 for a missing parameter. See {@link coinDeskFaults} for injected failures.
 *
 * @example
 * const coindesk = await startFakeCoinDeskServer({ apiKey: "test-key" });
 * process.env.COINDESK_API_URL = coindesk.url;
 */
export async function startFakeCoinDeskServer(
  options: StartFakeCoinDeskServerOptions = {},
): Promise<FakeCoinDeskServer> {
  const { apiKey, ticks = {} } = options;
  const known = new Set([...builtInInstruments, ...Object.keys(ticks)]);

  const server = await startFakeServer((request) => {
    if (request.method !== "GET" || request.path !== tickPath) {
      return coinDeskError(404, {
        type: 2,
        message: `Not found: the path ${request.path} does not exist.`,
        other_info: {},
      });
    }
    if (
      apiKey !== undefined &&
      request.headers.authorization !== `Apikey ${apiKey}` &&
      request.query.api_key !== apiKey
    ) {
      return coinDeskFaults.unauthorized();
    }
    const missing = ["market", "instruments"].find((param) => !request.query[param]);
    if (missing) {
      return coinDeskError(400, {
        type: 3,
        message: `Bad Request: the ${missing} parameter is required.`,
        other_info: { param: missing },
      });
    }
    const market = request.query.market ?? "";
    if (!markets.has(market)) {
      return coinDeskError(404, {
        type: 2,
        message: `Not found: market parameter. Value ${market} not integrated yet.`,
        other_info: { param: "market", values: [market] },
      });
    }
    const requested = (request.query.instruments ?? "")
      .split(",")
      .map((name) => name.trim())
      .filter(Boolean);
    const found = requested.filter((name) => known.has(name));
    if (found.length === 0) {
      return coinDeskError(404, {
        type: 2,
        message: `Not found: instruments parameter. Values ${requested.join(",")} not integrated yet.`,
        other_info: { param: "instruments", values: requested },
      });
    }
    const data: Record<string, Record<string, number | string | undefined>> = {};
    for (const name of found) {
      data[name] = { ...builtInTick(market, name), ...ticks[name] };
    }
    return { body: { Data: data, Err: {} } };
  }, options);
  return Object.assign(server, { apiKey });
}
