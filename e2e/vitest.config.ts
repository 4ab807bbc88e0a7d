import { mergeConfig } from "vitest/config";
import { sharedTestConfig } from "../vitest.shared.js";

export default mergeConfig(sharedTestConfig, {
  // The soak compares heap use before and after; collecting garbage first makes that fair.
  test: { execArgv: ["--expose-gc"] },
});
