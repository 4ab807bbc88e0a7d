import { z } from "zod";
import { coinDeskErrMessage } from "../coindesk/coindesk-envelope.js";
import { CoinDeskError } from "../error/coindesk-error.js";

/** The instrument `fetch_btc_market_data` reports on. */
export const btcInstrument = "BTC-USD";

const amount = z.number();

/** The fields of a CoinDesk index tick that the BTC summary uses; all finite numbers. */
const btcTickSchema = z.object({
  VALUE: amount,
  CURRENT_DAY_CHANGE: amount,
  CURRENT_DAY_CHANGE_PERCENTAGE: amount,
  CURRENT_WEEK_CHANGE: amount,
  CURRENT_WEEK_CHANGE_PERCENTAGE: amount,
  CURRENT_MONTH_CHANGE: amount,
  CURRENT_MONTH_CHANGE_PERCENTAGE: amount,
  CURRENT_YEAR_CHANGE_PERCENTAGE: amount,
  MOVING_24_HOUR_LOW: amount,
  MOVING_24_HOUR_HIGH: amount,
  CURRENT_DAY_HIGH: amount,
  CURRENT_DAY_LOW: amount,
});

/** The BTC-USD figures the summary is made of. */
export type BtcTick = z.infer<typeof btcTickSchema>;

function dataEntry(body: unknown, instrument: string): unknown {
  if (typeof body !== "object" || body === null || !("Data" in body)) return undefined;
  const data = body.Data;
  if (typeof data !== "object" || data === null) return undefined;
  return (data as Record<string, unknown>)[instrument];
}

/**
 * Takes the BTC-USD tick out of a latest-tick answer (`Data["BTC-USD"]`) and checks the fields
 * the summary needs. Throws {@link CoinDeskError} naming what is missing, or quoting the API's
 * `Err.message` when the answer has no BTC-USD data because of an error.
 */
export function readBtcTick(body: unknown): BtcTick {
  const entry = dataEntry(body, btcInstrument);
  if (entry === undefined) {
    const apiMessage = coinDeskErrMessage(body);
    throw new CoinDeskError({
      message: apiMessage
        ? `CoinDesk reported: ${apiMessage}`
        : `the answer has no ${btcInstrument} data`,
    });
  }
  const parsed = btcTickSchema.safeParse(entry);
  if (!parsed.success) {
    const fields = [...new Set(parsed.error.issues.map((issue) => issue.path.join(".")))];
    throw new CoinDeskError({
      message: `the ${btcInstrument} data lacks numeric ${fields.length === 1 ? "field" : "fields"} ${fields.join(", ") || "(all)"}`,
    });
  }
  return parsed.data;
}
