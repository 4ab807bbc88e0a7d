export {
  type BtcMarketDataToolOptions,
  createBtcMarketDataTool,
  fetch_btc_market_data,
} from "./fetch-btc-market-data.js";
