import { createRoute, type OpenAPIHono, z } from "@hono/zod-openapi";
import type { ServedAssistant } from "../../assistant/served-assistant.js";
import { ResourceNotFoundError } from "../../error/resource-not-found-error.js";
import type { ServerContext, ServerEnv } from "../server-context.js";
import { graphJsonSchemas } from "../state-json-schema.js";
import { wireAssistant } from "../wire-records.js";
import {
  assistantGraphSchema,
  assistantIdParam,
  assistantSchema,
  assistantSearchSchema,
  errorSchema,
  graphSchemasSchema,
} from "../wire-schemas.js";

const json = <T extends z.ZodType>(schema: T, description: string) => ({
  content: { "application/json": { schema } },
  description,
});

const notFound = json(errorSchema, "No such assistant");

/** Assistants: one per served agent or graph, read-only. */
export function assistantRoutes(app: OpenAPIHono<ServerEnv>, context: ServerContext): void {
  const find = (id: string): ServedAssistant => {
    const assistant = context.assistants.find(id);
    if (!assistant) throw new ResourceNotFoundError({ resource: "assistant", id });
    return assistant;
  };

  app.openapi(
    createRoute({
      method: "post",
      path: "/assistants/search",
      tags: ["Assistants"],
      summary: "List the served agents and graphs",
      request: { body: { content: { "application/json": { schema: assistantSearchSchema } } } },
      responses: { 200: json(z.array(assistantSchema), "The matching assistants") },
    }),
    (c) => {
      const search = c.req.valid("json");
      const matching = context.assistants
        .all()
        .map((assistant) => wireAssistant(assistant, context.startedAt))
        .filter(
          (assistant) =>
            (search.graph_id === undefined || assistant.graph_id === search.graph_id) &&
            (search.name === undefined || assistant.name === search.name) &&
            Object.entries(search.metadata ?? {}).every(
              ([key, value]) => (assistant.metadata as Record<string, unknown>)[key] === value,
            ),
        );
      return c.json(matching.slice(search.offset, search.offset + search.limit), 200);
    },
  );

  app.openapi(
    createRoute({
      method: "get",
      path: "/assistants/{assistant_id}",
      tags: ["Assistants"],
      summary: "Get an assistant by id or by the name it is served under",
      request: { params: assistantIdParam },
      responses: { 200: json(assistantSchema, "The assistant"), 404: notFound },
    }),
    (c) => c.json(wireAssistant(find(c.req.valid("param").assistant_id), context.startedAt), 200),
  );

  app.openapi(
    createRoute({
      method: "get",
      path: "/assistants/{assistant_id}/graph",
      tags: ["Assistants"],
      summary: "The assistant's graph, for drawing: START, nodes, END and edges",
      request: {
        params: assistantIdParam,
        query: z.object({ xray: z.string().optional() }),
      },
      responses: { 200: json(assistantGraphSchema, "Nodes and edges"), 404: notFound },
    }),
    (c) => {
      const drawing = find(c.req.valid("param").assistant_id).graph.drawing();
      return c.json(
        {
          nodes: drawing.nodes.map(({ id }) => ({ id, name: id, data: id })),
          edges: drawing.edges.map((edge) => ({ ...edge })),
        },
        200,
      );
    },
  );

  app.openapi(
    createRoute({
      method: "get",
      path: "/assistants/{assistant_id}/schemas",
      tags: ["Assistants"],
      summary: "JSON Schemas of the assistant's input and state",
      request: { params: assistantIdParam },
      responses: { 200: json(graphSchemasSchema, "The schemas"), 404: notFound },
    }),
    (c) => c.json(graphJsonSchemas(find(c.req.valid("param").assistant_id)), 200),
  );
}
