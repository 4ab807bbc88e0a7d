import { defineConfig } from "vitest/config";
import { sharedTestConfig } from "../vitest.shared.js";

// The shared "source" condition would also reach third-party packages that publish their
// TypeScript sources under it (eventsource-parser, under `ai`), which Node cannot load. The
// benchmarks run against the built packages anyway, as `pnpm bench` does.
const conditions = ["import", "module", "node", "default"];

export default defineConfig({
  ...sharedTestConfig,
  resolve: { ...sharedTestConfig.resolve, conditions },
  ssr: { ...sharedTestConfig.ssr, resolve: { ...sharedTestConfig.ssr?.resolve, conditions } },
});
