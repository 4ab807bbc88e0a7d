import { createRoute, type OpenAPIHono, z } from "@hono/zod-openapi";
import { apiReferencePage } from "../api-reference-page.js";
import type { ServerContext, ServerEnv } from "../server-context.js";

/** Routes anyone may call: health, and the API's description. */
export function metaRoutes(app: OpenAPIHono<ServerEnv>, _context: ServerContext): void {
  app.openapi(
    createRoute({
      method: "get",
      path: "/ok",
      tags: ["Server"],
      summary: "Health check",
      responses: {
        200: {
          content: { "application/json": { schema: z.object({ ok: z.literal(true) }) } },
          description: "Up",
        },
      },
    }),
    (c) => c.json({ ok: true as const }, 200),
  );
  app.get("/docs", (c) => {
    // Nothing on the page may come from another origin: it must work offline.
    c.header(
      "Content-Security-Policy",
      "default-src 'none'; script-src 'unsafe-inline'; style-src 'unsafe-inline'; connect-src 'self'",
    );
    return c.html(apiReferencePage);
  });
  app.doc31("/openapi.json", {
    openapi: "3.1.0",
    info: {
      title: "@framework/server",
      version: "1",
      description:
        "Agents, graphs and crews over HTTP, following LangGraph's Agent Protocol. Errors are `{ error: { type, message, issues? } }`.",
    },
  });
}
