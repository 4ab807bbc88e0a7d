import { defineConfig, mergeConfig } from "vitest/config";
import { sharedTestConfig } from "../../vitest.shared.js";

// vitest hands its resolve conditions to Node as `--conditions`; with `import` among them,
// node-postgres's CommonJS `require("pg-pool")` would load pg-pool's ES module instead and
// break. Node adds `import` or `require` by itself, so this package leaves it out.
const conditions = ["@framework/source", "module", "node", "default"];

export default mergeConfig(
  { ...sharedTestConfig, resolve: {}, ssr: {} },
  defineConfig({ resolve: { conditions }, ssr: { resolve: { conditions } } }),
);
