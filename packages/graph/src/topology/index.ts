export type { PathMap, RouteResult, Router, RouterContext } from "./router.js";
