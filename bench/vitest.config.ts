import { defineConfig } from "vitest/config";
import { sharedTestConfig } from "../vitest.shared.js";

// Without the shared `@framework/source` condition the benchmarks measure the built packages,
// as `pnpm bench` does, not their TypeScript sources.
const conditions = ["import", "module", "node", "default"];

export default defineConfig({
  ...sharedTestConfig,
  resolve: { ...sharedTestConfig.resolve, conditions },
  ssr: { ...sharedTestConfig.ssr, resolve: { ...sharedTestConfig.ssr?.resolve, conditions } },
});
