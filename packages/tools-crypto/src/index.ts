export {
  type BtcMarketDataToolOptions,
  createBtcMarketDataTool,
  fetch_btc_market_data,
} from "./btc/index.js";
