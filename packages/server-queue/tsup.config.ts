import { defineConfig } from "tsup";
import { sharedBuildConfig } from "../../tsup.shared.js";

export default defineConfig({
  ...sharedBuildConfig,
  entry: ["src/index.ts"],
});
