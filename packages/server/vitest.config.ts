import { mergeConfig } from "vitest/config";
import { sharedTestConfig } from "../../vitest.shared.js";

export default mergeConfig(sharedTestConfig, {
  // The studio page's own logic (its stream reducer, timeline, diff) is tested in Node too.
  test: { include: ["src/**/*.test.ts", "studio/src/**/*.test.ts"] },
});
