import type { FakeYahooSymbolProfile } from "../yahoo/yahoo-symbol-profiles.js";

/** How the fake VCI server describes and generates one Vietnamese ticker or index. */
export interface FakeVciSymbol {
  /**
   * `stock` prices are served in VND, rounded to the exchange's tick; `index` values in
   * points, as VCI serves them.
   */
  kind: "stock" | "index";
  /**
   * Drives the seeded random walk shared with the fake Yahoo server. For a stock,
   * `startPrice` is in thousands of VND (the unit Vietnamese quotes are read in).
   */
  profile: FakeYahooSymbolProfile;
}

const hose = {
  currency: "VND",
  exchangeName: "HOSE",
  fullExchangeName: "Ho Chi Minh City Stock Exchange",
  instrumentType: "EQUITY",
  timezone: "ICT",
  exchangeTimezoneName: "Asia/Ho_Chi_Minh",
  gmtoffset: 25_200,
  marketOpenSeconds: 9 * 3600,
} as const;

/**
 * The tickers the fake VCI server knows unless a test supplies its own: six HOSE blue chips
 * and the VN-Index. Start prices are chosen so that mid-2025 levels sit near where these names
 * really traded (FPT about 115,000 VND, VCB about 90,000, the VN-Index about 1,300 points).
 */
export const defaultFakeVciSymbols: Readonly<Record<string, FakeVciSymbol>> = {
  FPT: {
    kind: "stock",
    profile: {
      ...hose,
      longName: "FPT Corporation",
      shortName: "FPT",
      startPrice: 15,
      drift: 0.0008,
      volatility: 0.017,
      baseVolume: 4_000_000,
    },
  },
  VCB: {
    kind: "stock",
    profile: {
      ...hose,
      longName: "Joint Stock Commercial Bank for Foreign Trade of Vietnam",
      shortName: "Vietcombank",
      startPrice: 25.3,
      drift: 0.0005,
      volatility: 0.015,
      baseVolume: 2_000_000,
    },
  },
  VNM: {
    kind: "stock",
    profile: {
      ...hose,
      longName: "Vietnam Dairy Products Joint Stock Company",
      shortName: "Vinamilk",
      startPrice: 44,
      drift: 0.00005,
      volatility: 0.013,
      baseVolume: 3_000_000,
    },
  },
  HPG: {
    kind: "stock",
    profile: {
      ...hose,
      longName: "Hoa Phat Group Joint Stock Company",
      shortName: "Hoa Phat",
      startPrice: 9.6,
      drift: 0.0005,
      volatility: 0.02,
      baseVolume: 20_000_000,
    },
  },
  VIC: {
    kind: "stock",
    profile: {
      ...hose,
      longName: "Vingroup Joint Stock Company",
      shortName: "Vingroup",
      startPrice: 94,
      drift: 0.0001,
      volatility: 0.019,
      baseVolume: 3_500_000,
    },
  },
  MWG: {
    kind: "stock",
    profile: {
      ...hose,
      longName: "Mobile World Investment Corporation",
      shortName: "Mobile World",
      startPrice: 11.6,
      drift: 0.0004,
      volatility: 0.021,
      baseVolume: 6_000_000,
    },
  },
  VNINDEX: {
    kind: "index",
    profile: {
      ...hose,
      instrumentType: "INDEX",
      longName: "VN-Index",
      shortName: "VN-Index",
      startPrice: 896,
      drift: 0.0002,
      volatility: 0.011,
      baseVolume: 600_000_000,
    },
  },
};
