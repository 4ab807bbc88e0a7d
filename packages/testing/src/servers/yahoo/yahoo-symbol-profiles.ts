/**
 * How the fake Yahoo server describes and generates one symbol. The descriptive fields are
 * echoed in the chart response's `meta` block; the numeric ones drive the seeded random walk.
 */
export interface FakeYahooSymbolProfile {
  longName: string;
  shortName: string;
  currency: string;
  /** Yahoo's short exchange code, e.g. `NMS`. */
  exchangeName: string;
  /** Yahoo's display name of the exchange, e.g. `NasdaqGS`. */
  fullExchangeName: string;
  /** `EQUITY`, `INDEX`, `ETF`, ... */
  instrumentType: string;
  /** Abbreviation of the exchange's zone, e.g. `EST`. */
  timezone: string;
  /** IANA zone of the exchange, e.g. `America/New_York`. */
  exchangeTimezoneName: string;
  /**
   * Offset of the exchange's local time from UTC, in seconds, as `meta.gmtoffset` reports it
   * when the fake has no clock (Yahoo reports the offset at fetch time, so in winter for New
   * York: -18 000). Bars are stamped by `exchangeTimezoneName`'s rules, whatever this says.
   */
  gmtoffset: number;
  /** When the regular session opens, in seconds after local midnight. */
  marketOpenSeconds: number;
  /** How long the regular session lasts, in seconds (default 6.5 hours, New York's). */
  sessionSeconds?: number;
  /** Close of the day before the series starts. */
  startPrice: number;
  /** Mean daily log return. */
  drift: number;
  /** Standard deviation of the daily log return. */
  volatility: number;
  /** Typical shares traded per day. */
  baseVolume: number;
}

const newYorkEquity = {
  currency: "USD",
  exchangeName: "NMS",
  fullExchangeName: "NasdaqGS",
  instrumentType: "EQUITY",
  timezone: "EST",
  exchangeTimezoneName: "America/New_York",
  gmtoffset: -18_000,
  marketOpenSeconds: 9.5 * 3600,
} as const;

/**
 * The symbols the fake knows unless a test supplies its own: New York listings, and one each
 * in Sydney (`BHP.AX`), London (`HSBA.L`), Tokyo (`7203.T`) and Ho Chi Minh City (`VNM.VN`).
 * East of UTC a bar stamped at local midnight falls on the previous UTC day, as Yahoo's do.
 */
export const defaultFakeYahooSymbols: Readonly<Record<string, FakeYahooSymbolProfile>> = {
  AAPL: {
    ...newYorkEquity,
    longName: "Apple Inc.",
    shortName: "Apple Inc.",
    startPrice: 30,
    drift: 0.0006,
    volatility: 0.018,
    baseVolume: 90_000_000,
  },
  MSFT: {
    ...newYorkEquity,
    longName: "Microsoft Corporation",
    shortName: "Microsoft Corporation",
    startPrice: 30,
    drift: 0.0005,
    volatility: 0.016,
    baseVolume: 30_000_000,
  },
  NVDA: {
    ...newYorkEquity,
    longName: "NVIDIA Corporation",
    shortName: "NVIDIA Corporation",
    startPrice: 4,
    drift: 0.0009,
    volatility: 0.03,
    baseVolume: 400_000_000,
  },
  TSLA: {
    ...newYorkEquity,
    longName: "Tesla, Inc.",
    shortName: "Tesla, Inc.",
    startPrice: 20,
    drift: 0.0007,
    volatility: 0.035,
    baseVolume: 100_000_000,
  },
  GOOGL: {
    ...newYorkEquity,
    longName: "Alphabet Inc.",
    shortName: "Alphabet Inc.",
    startPrice: 15,
    drift: 0.0005,
    volatility: 0.017,
    baseVolume: 30_000_000,
  },
  AMZN: {
    ...newYorkEquity,
    longName: "Amazon.com, Inc.",
    shortName: "Amazon.com, Inc.",
    startPrice: 7,
    drift: 0.0006,
    volatility: 0.02,
    baseVolume: 60_000_000,
  },
  "^GSPC": {
    ...newYorkEquity,
    exchangeName: "SNP",
    fullExchangeName: "SNP",
    instrumentType: "INDEX",
    longName: "S&P 500",
    shortName: "S&P 500",
    startPrice: 1100,
    drift: 0.0003,
    volatility: 0.011,
    baseVolume: 3_500_000_000,
  },
  "BHP.AX": {
    currency: "AUD",
    exchangeName: "ASX",
    fullExchangeName: "ASX",
    instrumentType: "EQUITY",
    timezone: "AEDT",
    exchangeTimezoneName: "Australia/Sydney",
    gmtoffset: 39_600,
    marketOpenSeconds: 10 * 3600,
    longName: "BHP Group Limited",
    shortName: "BHP GROUP FPO [BHP]",
    startPrice: 40,
    drift: 0.0001,
    volatility: 0.015,
    baseVolume: 8_000_000,
  },
  "HSBA.L": {
    currency: "GBp",
    exchangeName: "LSE",
    fullExchangeName: "LSE",
    instrumentType: "EQUITY",
    timezone: "GMT",
    exchangeTimezoneName: "Europe/London",
    gmtoffset: 0,
    marketOpenSeconds: 8 * 3600,
    sessionSeconds: 8.5 * 3600,
    longName: "HSBC Holdings plc",
    shortName: "HSBC HOLDINGS PLC ORD $0.50 (UK",
    startPrice: 500,
    drift: 0.0002,
    volatility: 0.014,
    baseVolume: 25_000_000,
  },
  "7203.T": {
    currency: "JPY",
    exchangeName: "JPX",
    fullExchangeName: "Tokyo",
    instrumentType: "EQUITY",
    timezone: "JST",
    exchangeTimezoneName: "Asia/Tokyo",
    gmtoffset: 32_400,
    marketOpenSeconds: 9 * 3600,
    sessionSeconds: 6.5 * 3600,
    longName: "Toyota Motor Corporation",
    shortName: "TOYOTA MOTOR CORP",
    startPrice: 700,
    drift: 0.0004,
    volatility: 0.016,
    baseVolume: 30_000_000,
  },
  "VNM.VN": {
    currency: "VND",
    exchangeName: "VNM",
    fullExchangeName: "HOSE",
    instrumentType: "EQUITY",
    timezone: "ICT",
    exchangeTimezoneName: "Asia/Ho_Chi_Minh",
    gmtoffset: 25_200,
    marketOpenSeconds: 9 * 3600,
    sessionSeconds: 6 * 3600,
    longName: "Vietnam Dairy Products Joint Stock Company",
    shortName: "VIET NAM DAIRY PRODUCTS JSC",
    startPrice: 60_000,
    drift: 0.0002,
    volatility: 0.015,
    baseVolume: 3_000_000,
  },
};
