import { createRoute, type OpenAPIHono, z } from "@hono/zod-openapi";
import { ResourceNotFoundError } from "../../error/resource-not-found-error.js";
import type { ServerStudio } from "../../studio/server-studio.js";
import type { StudioSpan, StudioTracedRun } from "../../studio/studio-span-processor.js";
import type { ServerContext, ServerEnv } from "../server-context.js";
import { errorSchema, runIdParams } from "../wire-schemas.js";

const json = <T extends z.ZodType>(schema: T, description: string) => ({
  content: { "application/json": { schema } },
  description,
});

const attributeValue = z.union([
  z.string(),
  z.number(),
  z.boolean(),
  z.array(z.union([z.string(), z.number(), z.boolean(), z.null()])),
]);

const spanSchema = z
  .object({
    span_id: z.string(),
    parent_span_id: z.string().nullable(),
    trace_id: z.string(),
    name: z.string().openapi({ example: "graph_node market" }),
    start_time: z.number().openapi({ description: "Milliseconds since the epoch" }),
    end_time: z.number().nullable().openapi({ description: "null while the span is open" }),
    status: z.enum(["unset", "ok", "error"]),
    status_message: z.string().nullable(),
    attributes: z.record(z.string(), attributeValue),
  })
  .openapi("Span");

const recording = z.boolean().openapi({
  description:
    "Whether this server records spans: false when the app registered an OpenTelemetry provider of its own without a StudioSpanProcessor",
});

const traceSchema = z
  .object({
    recording,
    run_id: z.string(),
    thread_id: z.string(),
    spans: z.array(spanSchema),
    dropped_spans: z.number().int(),
  })
  .openapi("RunTrace");

const tracedRunSchema = z
  .object({
    run_id: z.string(),
    thread_id: z.string(),
    assistant_id: z.string(),
    status: z.string(),
    start_time: z.number(),
    duration_ms: z.number().nullable().openapi({ description: "null while the run is open" }),
    span_count: z.number().int(),
  })
  .openapi("TracedRun");

const wireSpan = (span: StudioSpan) => ({
  span_id: span.spanId,
  parent_span_id: span.parentSpanId,
  trace_id: span.traceId,
  name: span.name,
  start_time: span.startTime,
  end_time: span.endTime,
  status: span.status,
  status_message: span.statusMessage,
  attributes: span.attributes as Record<string, z.infer<typeof attributeValue>>,
});

/** The `graph_run` span's duration: the run's, as traced. */
function durationOf(traced: StudioTracedRun): number | null {
  const root = traced.spans.find((span) => span.parentSpanId === null) ?? traced.spans[0];
  return root?.endTime == null ? null : root.endTime - root.startTime;
}

/**
 * The spans of the caller's recent runs, kept in memory by the studio's span processor (on
 * with `studio`). A run that is not the caller's is a 404, as everywhere.
 */
export function traceRoutes(
  app: OpenAPIHono<ServerEnv>,
  context: ServerContext,
  studio: ServerStudio,
): void {
  const { store } = context;

  app.openapi(
    createRoute({
      method: "get",
      path: "/traces",
      tags: ["Studio"],
      summary: "Your recent runs whose spans the studio keeps, newest first",
      request: {
        query: z.object({ limit: z.coerce.number().int().min(1).max(100).default(50) }),
      },
      responses: {
        200: json(z.object({ recording, runs: z.array(tracedRunSchema) }), "The traced runs"),
      },
    }),
    async (c) => {
      const { limit } = c.req.valid("query");
      const runs = [];
      for (const traced of studio.spans.runs()) {
        if (runs.length >= limit) break;
        const run = await store.getRun(c.var.user.id, traced.runId);
        if (!run) continue;
        runs.push({
          run_id: run.runId,
          thread_id: run.threadId,
          assistant_id: run.assistantId,
          status: run.status,
          start_time: traced.startTime,
          duration_ms: durationOf(traced),
          span_count: traced.spans.length,
        });
      }
      return c.json({ recording: studio.recording, runs }, 200);
    },
  );

  app.openapi(
    createRoute({
      method: "get",
      path: "/threads/{thread_id}/runs/{run_id}/trace",
      tags: ["Studio"],
      summary:
        "A run's spans (graph_run, graph_node, invoke_agent, chat, execute_tool), for a waterfall",
      request: { params: runIdParams },
      responses: {
        200: json(traceSchema, "The spans the studio keeps of the run (none once forgotten)"),
        404: json(errorSchema, "No such run (or not yours)"),
      },
    }),
    async (c) => {
      const { thread_id: threadId, run_id: runId } = c.req.valid("param");
      const owner = c.var.user.id;
      if (!(await store.getThread(owner, threadId))) {
        throw new ResourceNotFoundError({ resource: "thread", id: threadId });
      }
      if (!(await store.getRun(owner, runId, threadId))) {
        throw new ResourceNotFoundError({ resource: "run", id: runId });
      }
      const traced = studio.spans.run(runId);
      return c.json(
        {
          recording: studio.recording,
          run_id: runId,
          thread_id: threadId,
          spans: (traced?.spans ?? []).map(wireSpan),
          dropped_spans: traced?.droppedSpans ?? 0,
        },
        200,
      );
    },
  );
}
