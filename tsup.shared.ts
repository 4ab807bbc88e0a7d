import type { Options } from "tsup";

/**
 * Build settings every package shares: ESM for Node 20, declarations emitted separately by
 * `tsc -p tsconfig.build.json` (TypeScript 7 has no API for tsup's `dts`).
 */
export const sharedBuildConfig: Options = {
  entry: ["src/index.ts"],
  format: ["esm"],
  target: "node20",
  platform: "node",
  sourcemap: true,
  clean: true,
  dts: false,
  // Tool names default to the function's name. Without this, esbuild renames a function that
  // clashes with its export: `export const paper_research = primaryFunction(…, function
  // paper_research…)` would register as `paper_research2`.
  keepNames: true,
};
