export { DEFAULT_THREAD_ID, type GraphConfig, type GraphConfigurable } from "./graph-config.js";
