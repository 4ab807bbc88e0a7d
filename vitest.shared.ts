import { defineConfig } from "vitest/config";

/**
 * Test settings every package shares. The `source` condition makes workspace packages resolve
 * to each other's TypeScript sources, so a change in one package is seen by the next without
 * a rebuild; the JSON report is what `scripts/run-tests.mjs` sums into CI's closing line.
 */
export const sharedTestConfig = defineConfig({
  resolve: { conditions: ["source", "import", "module", "node", "default"] },
  ssr: { resolve: { conditions: ["source", "import", "module", "node", "default"] } },
  test: {
    include: ["src/**/*.test.ts", "test/**/*.test.ts"],
    reporters: ["default", ["json", { outputFile: ".vitest/results.json" }]],
    testTimeout: 30_000,
    hookTimeout: 30_000,
  },
});
