import { describe, expect, it } from "vitest";
import { findTickers } from "./find-tickers.js";

describe("findTickers", () => {
  it("finds tickers and known company names in order, without acronyms that are not tickers", () => {
    expect(
      findTickers("Should I move from Nvidia into AAPL, FPT or ^GSPC? My BTC and ETF too.", {
        nvidia: "NVDA",
      }),
    ).toEqual(["NVDA", "AAPL", "FPT", "^GSPC"]);
    expect(findTickers("How is the market today?")).toEqual([]);
    expect(findTickers("Vinamilk or the VN-Index?")).toEqual(["VNM", "VNINDEX"]);
  });
});
