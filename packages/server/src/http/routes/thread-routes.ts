import { randomUUID } from "node:crypto";
import { createRoute, type OpenAPIHono, z } from "@hono/zod-openapi";
import { ResourceNotFoundError } from "../../error/resource-not-found-error.js";
import { ThreadIdTakenError } from "../../error/thread-id-taken-error.js";
import { readThreadState, type ThreadStateView } from "../../run/thread-state.js";
import { wireInterrupts } from "../../run/wire-interrupt.js";
import type { ThreadRecord } from "../../store/server-store.js";
import type { ServerContext, ServerEnv } from "../server-context.js";
import { wireThread, wireThreadState } from "../wire-records.js";
import {
  errorSchema,
  historyRequestSchema,
  threadCreateSchema,
  threadIdParam,
  threadPatchSchema,
  threadSchema,
  threadSearchSchema,
  threadStateSchema,
  threadStateUpdateAnswerSchema,
  threadStateUpdateSchema,
} from "../wire-schemas.js";

const json = <T extends z.ZodType>(schema: T, description: string) => ({
  content: { "application/json": { schema } },
  description,
});
const body = <T extends z.ZodType>(schema: T) => ({
  body: { content: { "application/json": { schema } } },
});

const notFound = json(errorSchema, "No such thread (or not yours)");

/** Threads: each belongs to the user who made it; another user's is a 404. */
export function threadRoutes(app: OpenAPIHono<ServerEnv>, context: ServerContext): void {
  const { store } = context;

  const ownThread = async (owner: string, threadId: string): Promise<ThreadRecord> => {
    const thread = await store.getThread(owner, threadId);
    if (!thread) throw new ResourceNotFoundError({ resource: "thread", id: threadId });
    return thread;
  };

  /** The thread's state through the graph of its last run; undefined when it never ran. */
  const stateOf = async (
    thread: ThreadRecord,
    checkpointId?: string,
  ): Promise<ThreadStateView | undefined> => {
    const assistant = thread.assistantId ? context.assistants.find(thread.assistantId) : undefined;
    return assistant && readThreadState(assistant, thread, checkpointId);
  };

  const emptyState = (threadId: string, checkpointId?: string) => {
    if (checkpointId !== undefined) {
      throw new ResourceNotFoundError({ resource: "checkpoint", id: checkpointId });
    }
    return {
      values: {},
      next: [],
      checkpoint: {
        thread_id: threadId,
        checkpoint_ns: "",
        checkpoint_id: null,
        checkpoint_map: null,
      },
      metadata: {},
      created_at: null,
      parent_checkpoint: null,
      tasks: [],
      interrupts: [],
    };
  };

  const stateAnswer = async (owner: string, threadId: string, checkpointId?: string) => {
    const thread = await ownThread(owner, threadId);
    const view = await stateOf(thread, checkpointId);
    return view ? wireThreadState(threadId, view) : emptyState(threadId, checkpointId);
  };

  app.openapi(
    createRoute({
      method: "post",
      path: "/threads",
      tags: ["Threads"],
      summary: "Create a thread",
      request: body(threadCreateSchema),
      responses: {
        200: json(threadSchema, "The new thread (or your existing one with if_exists do_nothing)"),
        409: json(errorSchema, "The id is taken"),
      },
    }),
    async (c) => {
      const request = c.req.valid("json");
      const threadId = request.thread_id ?? randomUUID();
      const created = await store.createThread(
        { threadId, owner: c.var.user.id, metadata: request.metadata ?? {} },
        { ifExists: request.if_exists },
      );
      if (created === "taken") throw new ThreadIdTakenError({ threadId });
      return c.json(wireThread(created, await stateOf(created)), 200);
    },
  );

  app.openapi(
    createRoute({
      method: "post",
      path: "/threads/search",
      tags: ["Threads"],
      summary: "Search your threads",
      request: body(threadSearchSchema),
      responses: { 200: json(z.array(threadSchema), "The matching threads") },
    }),
    async (c) => {
      const search = c.req.valid("json");
      const threads = await store.searchThreads(c.var.user.id, {
        ...(search.metadata === undefined ? {} : { metadata: search.metadata }),
        ...(search.status === undefined ? {} : { status: search.status }),
        ...(search.ids === undefined ? {} : { ids: search.ids }),
        limit: search.limit,
        offset: search.offset,
        sortBy: search.sort_by,
        sortOrder: search.sort_order,
      });
      const wire = await Promise.all(
        threads.map(async (thread) => wireThread(thread, await stateOf(thread))),
      );
      return c.json(wire, 200);
    },
  );

  app.openapi(
    createRoute({
      method: "get",
      path: "/threads/{thread_id}",
      tags: ["Threads"],
      summary: "Get a thread",
      request: { params: threadIdParam },
      responses: { 200: json(threadSchema, "The thread"), 404: notFound },
    }),
    async (c) => {
      const thread = await ownThread(c.var.user.id, c.req.valid("param").thread_id);
      return c.json(wireThread(thread, await stateOf(thread)), 200);
    },
  );

  app.openapi(
    createRoute({
      method: "patch",
      path: "/threads/{thread_id}",
      tags: ["Threads"],
      summary: "Merge metadata into a thread's",
      request: { params: threadIdParam, ...body(threadPatchSchema) },
      responses: { 200: json(threadSchema, "The thread"), 404: notFound },
    }),
    async (c) => {
      const { thread_id: threadId } = c.req.valid("param");
      const thread = await store.patchThread(c.var.user.id, threadId, c.req.valid("json"));
      if (!thread) throw new ResourceNotFoundError({ resource: "thread", id: threadId });
      return c.json(wireThread(thread, await stateOf(thread)), 200);
    },
  );

  app.openapi(
    createRoute({
      method: "delete",
      path: "/threads/{thread_id}",
      tags: ["Threads"],
      summary: "Delete a thread, its runs and its checkpoints (its running runs are stopped)",
      request: { params: threadIdParam },
      responses: { 204: { description: "Deleted" }, 404: notFound },
    }),
    async (c) => {
      await context.runs.deleteThread(c.var.user.id, c.req.valid("param").thread_id);
      return c.body(null, 204);
    },
  );

  app.openapi(
    createRoute({
      method: "get",
      path: "/threads/{thread_id}/state",
      tags: ["Threads"],
      summary: "The thread's current state",
      request: { params: threadIdParam, query: z.object({ subgraphs: z.string().optional() }) },
      responses: { 200: json(threadStateSchema, "The state"), 404: notFound },
    }),
    async (c) => c.json(await stateAnswer(c.var.user.id, c.req.valid("param").thread_id), 200),
  );

  app.openapi(
    createRoute({
      method: "post",
      path: "/threads/{thread_id}/state",
      tags: ["Threads"],
      summary: "Update the thread's state (as a node, or from outside; a fork from a checkpoint)",
      request: { params: threadIdParam, ...body(threadStateUpdateSchema) },
      responses: {
        200: json(threadStateUpdateAnswerSchema, "The checkpoint written"),
        404: notFound,
        409: json(
          errorSchema,
          "A run is pending or running on the thread, or no assistant is known for it (create it with metadata.graph_id)",
        ),
        422: json(errorSchema, "The values do not fit the state, or as_node is not a node"),
      },
    }),
    async (c) => {
      const { thread_id: threadId } = c.req.valid("param");
      const request = c.req.valid("json");
      const checkpointId = request.checkpoint_id ?? request.checkpoint?.checkpoint_id;
      const written = await context.runs.updateState(c.var.user.id, threadId, {
        values: request.values,
        ...(request.as_node === undefined ? {} : { asNode: request.as_node }),
        ...(checkpointId === undefined ? {} : { checkpointId }),
      });
      return c.json(
        {
          checkpoint: {
            thread_id: threadId,
            checkpoint_ns: "",
            checkpoint_id: written.id,
            checkpoint_map: null,
          },
        },
        200,
      );
    },
  );

  app.openapi(
    createRoute({
      method: "get",
      path: "/threads/{thread_id}/state/{checkpoint_id}",
      tags: ["Threads"],
      summary: "The thread's state at a checkpoint",
      request: {
        params: threadIdParam.extend({ checkpoint_id: z.string().min(1) }),
        query: z.object({ subgraphs: z.string().optional() }),
      },
      responses: { 200: json(threadStateSchema, "The state"), 404: notFound },
    }),
    async (c) => {
      const { thread_id: threadId, checkpoint_id: checkpointId } = c.req.valid("param");
      return c.json(await stateAnswer(c.var.user.id, threadId, checkpointId), 200);
    },
  );

  app.openapi(
    createRoute({
      method: "post",
      path: "/threads/{thread_id}/state/checkpoint",
      tags: ["Threads"],
      summary: "The thread's state at a checkpoint given in the body",
      request: {
        params: threadIdParam,
        ...body(
          z.object({
            checkpoint: z.looseObject({ checkpoint_id: z.string().optional() }),
            subgraphs: z.boolean().optional(),
          }),
        ),
      },
      responses: { 200: json(threadStateSchema, "The state"), 404: notFound },
    }),
    async (c) => {
      const { thread_id: threadId } = c.req.valid("param");
      const checkpointId = c.req.valid("json").checkpoint.checkpoint_id;
      return c.json(await stateAnswer(c.var.user.id, threadId, checkpointId), 200);
    },
  );

  app.openapi(
    createRoute({
      method: "post",
      path: "/threads/{thread_id}/history",
      tags: ["Threads"],
      summary: "The thread's checkpoints, newest first",
      request: { params: threadIdParam, ...body(historyRequestSchema) },
      responses: { 200: json(z.array(threadStateSchema), "The states"), 404: notFound },
    }),
    async (c) => {
      const { thread_id: threadId } = c.req.valid("param");
      const request = c.req.valid("json");
      const thread = await ownThread(c.var.user.id, threadId);
      const assistant = thread.assistantId
        ? context.assistants.find(thread.assistantId)
        : undefined;
      if (!assistant) return c.json([], 200);
      const before = selectedCheckpoint(request.before);
      const from = before ?? request.checkpoint?.checkpoint_id ?? thread.head ?? undefined;
      const states = [];
      const history = assistant.graph.getStateHistory(
        {
          configurable: {
            thread_id: threadId,
            ...(from === undefined ? {} : { checkpoint_id: from }),
          },
        },
        { limit: request.limit + (before === undefined ? 0 : 1) },
      );
      for await (const snapshot of history) {
        if (before !== undefined && snapshot.checkpoint?.id === before) continue;
        if (!matchesMetadata(snapshot.checkpoint?.metadata ?? {}, request.metadata)) continue;
        const view = {
          snapshot,
          values: assistant.toWire(snapshot.values),
          interrupts: wireInterrupts(snapshot),
        };
        states.push(wireThreadState(threadId, view));
      }
      return c.json(states, 200);
    },
  );
}

function selectedCheckpoint(
  before: z.output<typeof historyRequestSchema>["before"],
): string | undefined {
  if (before === undefined) return undefined;
  if (typeof before === "string") return before;
  if ("configurable" in before && typeof before.configurable === "object") {
    return (before.configurable as { checkpoint_id?: string }).checkpoint_id;
  }
  return (before as { checkpoint_id?: string }).checkpoint_id;
}

function matchesMetadata(
  metadata: Readonly<Record<string, unknown>>,
  filter: Readonly<Record<string, unknown>> | undefined,
): boolean {
  return Object.entries(filter ?? {}).every(([key, value]) => metadata[key] === value);
}
