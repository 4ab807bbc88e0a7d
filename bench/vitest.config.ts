import { defineConfig } from "vitest/config";
import { sharedTestConfig } from "../vitest.shared.js";

// Without the shared `@framework/source` condition the benchmarks measure the built packages,
// as `pnpm bench` does, not their TypeScript sources. Without `import` too: vitest hands its
// conditions to Node, and with `import` node-postgres's CommonJS `require("pg-pool")` (item
// 10's savers) would load pg-pool's ES module and break. Node adds `import` by itself.
const conditions = ["module", "node", "default"];

export default defineConfig({
  ...sharedTestConfig,
  resolve: { ...sharedTestConfig.resolve, conditions },
  ssr: { ...sharedTestConfig.ssr, resolve: { ...sharedTestConfig.ssr?.resolve, conditions } },
});
