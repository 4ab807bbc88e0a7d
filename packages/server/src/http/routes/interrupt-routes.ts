import { createRoute, type OpenAPIHono, z } from "@hono/zod-openapi";
import { readThreadState } from "../../run/thread-state.js";
import type { ServerContext, ServerEnv } from "../server-context.js";
import { interruptSchema } from "../wire-schemas.js";

const pendingSchema = z
  .object({
    thread_id: z.string(),
    assistant_id: z.string(),
    graph_id: z.string(),
    updated_at: z.string(),
    metadata: z.record(z.string(), z.unknown()),
    interrupts: z.array(interruptSchema),
  })
  .openapi("PendingInterrupts");

/**
 * An inbox: the caller's threads that wait on an answer, across all threads, each with what it
 * waits on (a tool approval's `value` holds the call and its arguments). Answer one with a run
 * on its thread whose `command.resume` is the answer.
 */
export function interruptRoutes(app: OpenAPIHono<ServerEnv>, context: ServerContext): void {
  app.openapi(
    createRoute({
      method: "get",
      path: "/interrupts",
      tags: ["Threads"],
      summary:
        "Your threads waiting on an answer, most recently updated first, with their interrupts",
      request: {
        query: z.object({
          limit: z.coerce.number().int().min(1).max(100).default(50),
          offset: z.coerce.number().int().min(0).default(0),
        }),
      },
      responses: {
        200: {
          content: { "application/json": { schema: z.array(pendingSchema) } },
          description: "The waiting threads",
        },
      },
    }),
    async (c) => {
      const { limit, offset } = c.req.valid("query");
      const threads = await context.store.searchThreads(c.var.user.id, {
        status: "interrupted",
        limit,
        offset,
        sortBy: "updated_at",
        sortOrder: "desc",
      });
      const pending = [];
      for (const thread of threads) {
        const assistant = thread.assistantId
          ? context.assistants.find(thread.assistantId)
          : undefined;
        if (!assistant) continue;
        const { interrupts } = await readThreadState(assistant, thread);
        if (interrupts.length === 0) continue;
        pending.push({
          thread_id: thread.threadId,
          assistant_id: assistant.assistantId,
          graph_id: assistant.graphId,
          updated_at: thread.updatedAt,
          metadata: thread.metadata,
          interrupts: [...interrupts],
        });
      }
      return c.json(pending, 200);
    },
  );
}
