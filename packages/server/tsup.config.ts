import { defineConfig } from "tsup";
import { sharedBuildConfig } from "../../tsup.shared.js";

export default defineConfig({
  ...sharedBuildConfig,
  entry: ["src/index.ts", "src/conformance.ts", "src/internal.ts"],
  // The conformance suite registers tests with the caller's vitest; bundling a copy would
  // register them with a runner that is not running.
  external: ["vitest"],
});
