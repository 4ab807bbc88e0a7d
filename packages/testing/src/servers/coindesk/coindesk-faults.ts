import type { FakeResponse } from "../../server/fake-server.js";

/** The `Err` part of the CoinDesk data API's response envelope. */
export interface CoinDeskErr {
  /** A public error type; the numbers used by the fake are its own. */
  type: number;
  message: string;
  other_info: { param?: string; values?: string[] };
}

/** A CoinDesk error answer: the real envelope `{ Data: {}, Err: { type, message, other_info } }`. */
export function coinDeskError(status: number, err: CoinDeskErr): FakeResponse {
  return { status, body: { Data: {}, Err: err } };
}

/** Error and broken answers of the CoinDesk data API, for `injectFaults` or `setFaultRate`. */
export const coinDeskFaults = {
  /** HTTP 401, as for a missing or wrong key. */
  unauthorized: (): FakeResponse =>
    coinDeskError(401, {
      type: 1,
      message: "You need a valid auth key or api key to access this endpoint",
      other_info: {},
    }),
  /** HTTP 429, over the rate limit. */
  rateLimited: (): FakeResponse =>
    coinDeskError(429, {
      type: 4,
      message: "You are over your rate limit please upgrade your account!",
      other_info: {},
    }),
  /** HTTP 500 with the error envelope. */
  serverError: (): FakeResponse =>
    coinDeskError(500, {
      type: 5,
      message: "Internal server error, please try again later.",
      other_info: {},
    }),
  /** HTTP 200 whose JSON body stops mid-value, as when a proxy cuts the answer short. */
  malformedBody: (): FakeResponse => ({
    status: 200,
    headers: { "content-type": "application/json" },
    body: '{"Data":{"BTC-USD":{"TYPE":"1101","MARKET":"cadli","INSTRUMENT":"BTC-USD","VALUE":9723',
  }),
};
