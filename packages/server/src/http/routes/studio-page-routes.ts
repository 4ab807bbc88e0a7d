import type { OpenAPIHono } from "@hono/zod-openapi";
import type { Context } from "hono";
import { STUDIO_CONTENT_SECURITY_POLICY, type StudioAssets } from "../../studio/studio-assets.js";
import type { ServerEnv } from "../server-context.js";

/**
 * The studio's page at `/studio`, answered without authentication: a browser cannot send a
 * token when it opens a URL, so the page loads, then asks for a token when the API answers
 * 401. The page holds nothing of anyone's: every thread, run and trace comes from the API.
 */
export function studioPageRoutes(app: OpenAPIHono<ServerEnv>, assets: StudioAssets): void {
  app.get("/studio", (c) => c.redirect("/studio/", 308));
  app.get("/studio/*", (c) =>
    serve(c, assets, c.req.path.slice("/studio/".length) || "index.html"),
  );
}

function serve(c: Context<ServerEnv>, assets: StudioAssets, path: string): Response {
  c.header("Content-Security-Policy", STUDIO_CONTENT_SECURITY_POLICY);
  c.header("X-Content-Type-Options", "nosniff");
  c.header("Referrer-Policy", "no-referrer");
  const file = assets.find(decoded(path));
  if (!file) {
    return c.json(
      { error: { type: "RouteNotFoundError", message: `No studio file ${c.req.path}` } },
      404,
    );
  }
  c.header("Content-Type", file.contentType);
  c.header("Cache-Control", file.immutable ? "public, max-age=31536000, immutable" : "no-cache");
  c.header("Vary", "Accept-Encoding");
  const gzipped = /\bgzip\b/.test(c.req.header("accept-encoding") ?? "")
    ? file.gzipped()
    : undefined;
  if (gzipped) {
    c.header("Content-Encoding", "gzip");
    return c.body(gzipped as Uint8Array<ArrayBuffer>, 200);
  }
  return c.body(file.body as Uint8Array<ArrayBuffer>, 200);
}

/** The path as the file names it; a malformed escape names no file. */
function decoded(path: string): string {
  try {
    return decodeURIComponent(path);
  } catch {
    return "\u0000";
  }
}
