import { fileURLToPath } from "node:url";
import { defineConfig } from "vite";

/**
 * The studio page, built into the server package (`dist/studio-page`: `dist/studio` holds the
 * declarations of the server's own studio modules, which an emptied out folder would lose) and
 * served by it at `/studio/`. React's JSX is compiled by Vite's own Oxc transform (no plugin: a production
 * build needs no fast refresh). Every view but the shell is loaded on demand, so the first
 * load stays small; the graph layout engine (elkjs) is loaded only to draw a graph.
 */
export default defineConfig({
  root: fileURLToPath(new URL(".", import.meta.url)),
  base: "/studio/",
  publicDir: "public",
  oxc: { jsx: { runtime: "automatic", importSource: "react" } },
  define: { "process.env.NODE_ENV": JSON.stringify("production") },
  build: {
    outDir: fileURLToPath(new URL("../dist/studio-page", import.meta.url)),
    emptyOutDir: true,
    target: "es2022",
    // Inline assets would need `data:` in more of the page's policy; files are served anyway.
    assetsInlineLimit: 0,
    sourcemap: false,
    reportCompressedSize: true,
    chunkSizeWarningLimit: 2_000,
    rollupOptions: {
      // React Flow marks itself "use client" for React Server Components; this page has none.
      onwarn(warning, warn) {
        if (warning.code !== "MODULE_LEVEL_DIRECTIVE") warn(warning);
      },
      // A build of a few seconds needs no report of where its plugins spent them.
      checks: { pluginTimings: false },
    },
  },
});
