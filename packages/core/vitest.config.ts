import { mergeConfig } from "vitest/config";
import { sharedTestConfig } from "../../vitest.shared.js";

export default mergeConfig(sharedTestConfig, {
  test: {
    // The registry tests install a fixture tool package into a temporary app's node_modules;
    // inlining lets it re-export the TypeScript fixture.
    server: { deps: { inline: [/fixture-tools-package/] } },
  },
});
