/** One instrument's latest tick as the CoinDesk index API sends it (numbers, strings). */
export type CoinDeskTick = Record<string, number | string>;

interface Window {
  open: number;
  high: number;
  low: number;
  /** Traded quantity in the base asset. */
  volume: number;
  updates: number;
}

interface InstrumentSeed {
  value: number;
  /** Value before the last update, which sets VALUE_FLAG. */
  previous: number;
  lastQuantity: number;
  ccseq: number;
  windows: Record<
    | "CURRENT_HOUR"
    | "CURRENT_DAY"
    | "CURRENT_WEEK"
    | "CURRENT_MONTH"
    | "CURRENT_YEAR"
    | "MOVING_24_HOUR"
    | "MOVING_7_DAY"
    | "MOVING_30_DAY",
    Window
  >;
  lifetime: {
    firstTs: number;
    open: number;
    high: number;
    highTs: number;
    low: number;
    lowTs: number;
  };
}

// A fixed moment (2025-01-15 12:00:00 UTC) keeps every answer reproducible.
const lastUpdateTs = 1_736_942_400;

const seeds: Record<string, InstrumentSeed> = {
  "BTC-USD": {
    value: 97234.5612,
    previous: 97230.1408,
    lastQuantity: 0.0153,
    ccseq: 412_908_117,
    windows: {
      CURRENT_HOUR: { open: 97100.12, high: 97300.45, low: 97050.3, volume: 612.4, updates: 3120 },
      CURRENT_DAY: {
        open: 96120.87,
        high: 97510.22,
        low: 95870.4,
        volume: 9874.21,
        updates: 41862,
      },
      CURRENT_WEEK: {
        open: 94210.33,
        high: 98120.5,
        low: 93650.12,
        volume: 48210.7,
        updates: 203411,
      },
      CURRENT_MONTH: {
        open: 93429.2,
        high: 99840.1,
        low: 89120.77,
        volume: 142880.3,
        updates: 611204,
      },
      CURRENT_YEAR: {
        open: 93429.2,
        high: 99840.1,
        low: 89120.77,
        volume: 142880.3,
        updates: 611204,
      },
      MOVING_24_HOUR: {
        open: 95980.5,
        high: 97620.91,
        low: 95640.27,
        volume: 18120.66,
        updates: 86420,
      },
      MOVING_7_DAY: {
        open: 94010.18,
        high: 98120.5,
        low: 91210.4,
        volume: 101220.9,
        updates: 452100,
      },
      MOVING_30_DAY: {
        open: 99120.44,
        high: 102880.31,
        low: 89120.77,
        volume: 512004.2,
        updates: 1876300,
      },
    },
    lifetime: {
      firstTs: 1_279_324_800,
      open: 0.0495,
      high: 108135.31,
      highTs: 1_734_480_000,
      low: 0.01,
      lowTs: 1_287_187_200,
    },
  },
  "ETH-USD": {
    value: 3312.4471,
    previous: 3312.9012,
    lastQuantity: 0.842,
    ccseq: 288_114_032,
    windows: {
      CURRENT_HOUR: { open: 3305.18, high: 3318.6, low: 3301.02, volume: 9120.5, updates: 2890 },
      CURRENT_DAY: { open: 3279.94, high: 3331.2, low: 3251.66, volume: 151200.8, updates: 39120 },
      CURRENT_WEEK: {
        open: 3220.41,
        high: 3402.77,
        low: 3190.05,
        volume: 720114.3,
        updates: 188402,
      },
      CURRENT_MONTH: {
        open: 3332.1,
        high: 3744.9,
        low: 3190.05,
        volume: 2120770.4,
        updates: 590211,
      },
      CURRENT_YEAR: {
        open: 3332.1,
        high: 3744.9,
        low: 3190.05,
        volume: 2120770.4,
        updates: 590211,
      },
      MOVING_24_HOUR: {
        open: 3268.2,
        high: 3335.75,
        low: 3249.9,
        volume: 280440.1,
        updates: 80122,
      },
      MOVING_7_DAY: {
        open: 3361.8,
        high: 3455.12,
        low: 3190.05,
        volume: 1501220.6,
        updates: 420330,
      },
      MOVING_30_DAY: {
        open: 3640.25,
        high: 4107.8,
        low: 3190.05,
        volume: 7010220.4,
        updates: 1720111,
      },
    },
    lifetime: {
      firstTs: 1_438_905_600,
      open: 2.77,
      high: 4878.26,
      highTs: 1_636_502_400,
      low: 0.42,
      lowTs: 1_445_385_600,
    },
  },
  "SOL-USD": {
    value: 187.2208,
    previous: 187.1034,
    lastQuantity: 12.5,
    ccseq: 190_442_871,
    windows: {
      CURRENT_HOUR: { open: 186.9, high: 187.66, low: 186.52, volume: 41200.3, updates: 2410 },
      CURRENT_DAY: { open: 183.75, high: 188.4, low: 182.9, volume: 702331.5, updates: 33870 },
      CURRENT_WEEK: { open: 179.42, high: 192.1, low: 176.3, volume: 3580220.1, updates: 160211 },
      CURRENT_MONTH: { open: 189.71, high: 221.4, low: 176.3, volume: 10120440.8, updates: 512330 },
      CURRENT_YEAR: { open: 189.71, high: 221.4, low: 176.3, volume: 10120440.8, updates: 512330 },
      MOVING_24_HOUR: { open: 183.1, high: 188.9, low: 182.6, volume: 1302550.2, updates: 69120 },
      MOVING_7_DAY: { open: 181.05, high: 196.2, low: 176.3, volume: 7420110.5, updates: 370220 },
      MOVING_30_DAY: { open: 212.6, high: 236.9, low: 176.3, volume: 30220880.1, updates: 1510400 },
    },
    lifetime: {
      firstTs: 1_586_476_800,
      open: 0.95,
      high: 263.83,
      highTs: 1_732_147_200,
      low: 0.5,
      lowTs: 1_588_204_800,
    },
  },
};

function buildTick(market: string, instrument: string, seed: InstrumentSeed): CoinDeskTick {
  const tick: CoinDeskTick = {
    TYPE: "1101",
    MARKET: market,
    INSTRUMENT: instrument,
    CCSEQ: seed.ccseq,
    VALUE: seed.value,
    VALUE_FLAG:
      seed.value > seed.previous ? "UP" : seed.value < seed.previous ? "DOWN" : "UNCHANGED",
    VALUE_LAST_UPDATE_TS: lastUpdateTs,
    VALUE_LAST_UPDATE_TS_NS: 412_000_000,
    LAST_UPDATE_QUANTITY: seed.lastQuantity,
    LAST_UPDATE_QUOTE_QUANTITY: seed.lastQuantity * seed.value,
    LAST_UPDATE_CCSEQ: seed.ccseq,
  };
  for (const [window, w] of Object.entries(seed.windows)) {
    const change = seed.value - w.open;
    tick[`${window}_VOLUME`] = w.volume;
    tick[`${window}_QUOTE_VOLUME`] = w.volume * ((w.high + w.low) / 2);
    tick[`${window}_OPEN`] = w.open;
    tick[`${window}_HIGH`] = w.high;
    tick[`${window}_LOW`] = w.low;
    tick[`${window}_TOTAL_INDEX_UPDATES`] = w.updates;
    tick[`${window}_CHANGE`] = change;
    tick[`${window}_CHANGE_PERCENTAGE`] = (change / w.open) * 100;
  }
  const { lifetime } = seed;
  const lifetimeChange = seed.value - lifetime.open;
  Object.assign(tick, {
    LIFETIME_FIRST_UPDATE_TS: lifetime.firstTs,
    LIFETIME_OPEN: lifetime.open,
    LIFETIME_HIGH: lifetime.high,
    LIFETIME_HIGH_TS: lifetime.highTs,
    LIFETIME_LOW: lifetime.low,
    LIFETIME_LOW_TS: lifetime.lowTs,
    LIFETIME_CHANGE: lifetimeChange,
    LIFETIME_CHANGE_PERCENTAGE: (lifetimeChange / lifetime.open) * 100,
  });
  return tick;
}

/** Instruments the fake knows without being told: BTC-USD, ETH-USD and SOL-USD. */
export const builtInInstruments: readonly string[] = Object.keys(seeds);

/**
 * The built-in tick of an instrument on a market, as `apply_mapping=true` returns it: ID and
 * value fields, then OPEN/HIGH/LOW/VOLUME/CHANGE groups for the current hour, day, week,
 * month and year, the moving 24 hours, 7 and 30 days, and lifetime figures. Changes are
 * computed from VALUE and each window's OPEN, so the numbers agree with each other.
 * `undefined` for an instrument the fake does not know.
 */
export function builtInTick(market: string, instrument: string): CoinDeskTick | undefined {
  const seed = seeds[instrument];
  return seed ? buildTick(market, instrument, seed) : undefined;
}
