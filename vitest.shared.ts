import { createRequire } from "node:module";
import { fileURLToPath } from "node:url";
import { defineConfig, mergeConfig, type Plugin } from "vitest/config";

interface EsbuildTransform {
  transform(
    code: string,
    options: { loader: "ts"; target: string; sourcemap: boolean; sourcefile: string },
  ): Promise<{ code: string; map: string }>;
}

/**
 * Vite 8 compiles TypeScript with Oxc, which does not lower standard (TC39) decorators, and
 * Node 20 cannot run them. `@loggingMessage` is meant to be used as a real decorator, so
 * TypeScript files using decorator syntax go through esbuild first (reached through vitest's
 * own vite, so no package needs to depend on it).
 */
function standardDecorators(): Plugin {
  const vitePath = createRequire(import.meta.resolve("vitest/package.json")).resolve("vite");
  const esbuild = createRequire(vitePath)("esbuild") as EsbuildTransform;
  return {
    name: "framework:standard-decorators",
    enforce: "pre",
    async transform(code, id) {
      if (!id.endsWith(".ts") || id.includes("/node_modules/")) return null;
      if (!/^\s*@[A-Za-z]/m.test(code)) return null;
      const result = await esbuild.transform(code, {
        loader: "ts",
        target: "es2022",
        sourcemap: true,
        sourcefile: id,
      });
      return { code: result.code, map: result.map };
    },
  };
}

const conditions = ["@framework/source", "import", "module", "node", "default"];

/**
 * Test settings every package shares. The `@framework/source` condition makes workspace
 * packages resolve to each other's TypeScript sources, so a change in one package is seen by
 * the next without a rebuild. It is scoped to our name because a plain `source` condition is
 * also published by third-party packages (eventsource, eventsource-parser) pointing at
 * TypeScript that is not meant to be compiled by their users; the JSON report is what `scripts/run-tests.mjs` sums into CI's closing line. The
 * setup files fail any test file whose output or captured log lines show a known test secret,
 * and seed every property test (`FC_SEED` overrides the seed; a failure prints it).
 */
export const sharedTestConfig = defineConfig({
  plugins: [standardDecorators()],
  resolve: { conditions },
  ssr: { resolve: { conditions } },
  test: {
    include: ["src/**/*.test.ts", "test/**/*.test.ts"],
    reporters: ["default", ["json", { outputFile: ".vitest/results.json" }]],
    setupFiles: [
      fileURLToPath(
        new URL("./packages/testing/src/secrets/secret-guard-setup.ts", import.meta.url),
      ),
      fileURLToPath(
        new URL("./packages/testing/src/reliability/fast-check-seed-setup.ts", import.meta.url),
      ),
    ],
    testTimeout: 120_000,
    hookTimeout: 120_000,
  },
});

// vitest hands its resolve conditions to Node as `--conditions`; with `import` among them,
// node-postgres's CommonJS `require("pg-pool")` would load pg-pool's ES module instead and
// break. Node adds `import` or `require` by itself, so these leave it out.
const nodePostgresConditions = conditions.filter((condition) => condition !== "import");

/** {@link sharedTestConfig} for a package whose tests load node-postgres (`pg`). */
export const nodePostgresTestConfig = mergeConfig(
  { ...sharedTestConfig, resolve: {}, ssr: {} },
  defineConfig({
    resolve: { conditions: nodePostgresConditions },
    ssr: { resolve: { conditions: nodePostgresConditions } },
  }),
);
