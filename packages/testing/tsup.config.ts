import { defineConfig } from "tsup";
import { sharedBuildConfig } from "../../tsup.shared.js";

export default defineConfig({
  ...sharedBuildConfig,
  // `./services` is an entry of its own: it talks to real Postgres and Redis, and users of the
  // fakes alone never load it.
  entry: ["src/index.ts", "src/services.ts"],
});
