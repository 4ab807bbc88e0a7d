import { describe, expect, it } from "vitest";
import { readBtcTick } from "./btc-tick.js";

const tick = {
  VALUE: 1,
  CURRENT_DAY_CHANGE: 2,
  CURRENT_DAY_CHANGE_PERCENTAGE: 3,
  CURRENT_WEEK_CHANGE: 4,
  CURRENT_WEEK_CHANGE_PERCENTAGE: 5,
  CURRENT_MONTH_CHANGE: 6,
  CURRENT_MONTH_CHANGE_PERCENTAGE: 7,
  CURRENT_YEAR_CHANGE_PERCENTAGE: 8,
  MOVING_24_HOUR_LOW: 9,
  MOVING_24_HOUR_HIGH: 10,
  CURRENT_DAY_HIGH: 11,
  CURRENT_DAY_LOW: 12,
};

describe("readBtcTick", () => {
  it("returns the twelve figures of Data['BTC-USD'], ignoring other fields", () => {
    expect(readBtcTick({ Data: { "BTC-USD": { ...tick, TYPE: "1101" } }, Err: {} })).toEqual(tick);
  });

  it("quotes the API's Err.message when there is no BTC-USD data", () => {
    expect(() => readBtcTick({ Data: {}, Err: { type: 2, message: "Not found" } })).toThrow(
      "CoinDesk reported: Not found",
    );
  });

  it.each([[{ Data: {}, Err: {} }], [{}], [null], [[]], ["text"], [{ Data: null }]])(
    "says the answer has no BTC-USD data for %j",
    (body) => {
      expect(() => readBtcTick(body)).toThrow("the answer has no BTC-USD data");
    },
  );

  it("names one missing field", () => {
    const { CURRENT_DAY_LOW: _, ...rest } = tick;
    expect(() => readBtcTick({ Data: { "BTC-USD": rest } })).toThrow(
      "the BTC-USD data lacks numeric field CURRENT_DAY_LOW",
    );
  });

  it("names every field that is missing or not a number", () => {
    expect(() =>
      readBtcTick({ Data: { "BTC-USD": { ...tick, VALUE: "97000", CURRENT_DAY_HIGH: null } } }),
    ).toThrow("the BTC-USD data lacks numeric fields VALUE, CURRENT_DAY_HIGH");
  });

  it("says so when the BTC-USD entry is not an object", () => {
    expect(() => readBtcTick({ Data: { "BTC-USD": 42 } })).toThrow(
      "the BTC-USD data lacks numeric field (all)",
    );
  });
});
