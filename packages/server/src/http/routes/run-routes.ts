import { createRoute, type OpenAPIHono, z } from "@hono/zod-openapi";
import type { Context } from "hono";
import { RequestValidationError } from "../../error/request-validation-error.js";
import { ResourceNotFoundError } from "../../error/resource-not-found-error.js";
import type { RunCreation } from "../../run/run-creation.js";
import { readThreadState } from "../../run/thread-state.js";
import type { JsonObject, RunRecord } from "../../store/server-store.js";
import { protocolRenderer, runEventStream, sseHeaders } from "../run-event-stream.js";
import type { ServerContext, ServerEnv } from "../server-context.js";
import { wireRun } from "../wire-records.js";
import {
  cancelQuerySchema,
  errorSchema,
  joinStreamQuerySchema,
  runCreateSchema,
  runIdParams,
  runListQuerySchema,
  runSchema,
  threadIdParam,
} from "../wire-schemas.js";

type RunCreate = z.output<typeof runCreateSchema>;

const json = <T extends z.ZodType>(schema: T, description: string) => ({
  content: { "application/json": { schema } },
  description,
});
const runBody = { body: { content: { "application/json": { schema: runCreateSchema } } } };
const eventStream = {
  content: { "text/event-stream": { schema: z.string() } },
  description:
    "The run's events as Server-Sent Events: `metadata` first, then the stream modes' events, each with an `id:` to resume after (`Last-Event-ID`).",
};
const waitAnswer = json(
  z.looseObject({}),
  "The thread's values when the run ended (with `__interrupt__` when it waits on one, or `__error__` when it failed)",
);
const errors = {
  404: json(errorSchema, "No such assistant, thread or run (or not yours)"),
  409: json(
    errorSchema,
    "The thread is busy (multitask_strategy reject), or there is nothing to resume",
  ),
  422: json(errorSchema, "The request does not fit the route or the graph's state"),
  429: json(
    errorSchema,
    "The user has as many active or pending runs as the server's quotas allow; see Retry-After",
  ),
};

/** Settings the server decides, whatever a request's (or a cron's) `configurable` says. */
export const serverKeys = new Set([
  "thread_id",
  "user_id",
  "run_id",
  "checkpoint_id",
  "checkpoint_ns",
]);

/** A run request in the server's terms. */
function runCreation(
  request: RunCreate,
  defaultModes: readonly string[] = ["values"],
): RunCreation {
  for (const key of ["interrupt_before", "interrupt_after"] as const) {
    const value = request[key];
    if (value !== undefined && (value === "*" || value.length > 0)) {
      throw new RequestValidationError({
        issues: [
          {
            path: [key],
            message: "Static breakpoints are not supported: use context.interrupt in a node",
          },
        ],
      });
    }
  }
  const command = request.command ?? {};
  const unsupported = Object.keys(command).filter(
    (key) => key !== "resume" && command[key] != null,
  );
  if (unsupported.length > 0) {
    throw new RequestValidationError({
      issues: unsupported.map((key) => ({
        path: ["command", key],
        message: "Only command.resume is supported",
      })),
    });
  }
  const config = request.config ?? {};
  const configurable = (config.configurable ?? {}) as JsonObject;
  const modes = request.stream_mode;
  return {
    assistantId: request.assistant_id,
    ...(request.input === undefined ? {} : { input: request.input }),
    ...("resume" in command && command.resume !== undefined ? { resume: command.resume } : {}),
    config: {
      ...config,
      configurable: Object.fromEntries(
        Object.entries(configurable).filter(([key]) => !serverKeys.has(key)),
      ),
    },
    metadata: request.metadata ?? {},
    streamMode: modes === undefined ? defaultModes : Array.isArray(modes) ? modes : [modes],
    multitaskStrategy: request.multitask_strategy,
    onDisconnect: request.on_disconnect,
    checkpointId:
      request.checkpoint_id ??
      request.checkpoint?.checkpoint_id ??
      (typeof configurable.checkpoint_id === "string" ? configurable.checkpoint_id : null),
    ...(request.if_not_exists === undefined ? {} : { ifNotExists: request.if_not_exists }),
    ...(request.on_completion === undefined ? {} : { onCompletion: request.on_completion }),
    ...(request.webhook === undefined ? {} : { webhook: request.webhook }),
  };
}

/** Where a run lives on the wire, and where its event stream is. */
function runPaths(run: RunRecord): { contentLocation: string; location: string } {
  const path = `/threads/${encodeURIComponent(run.threadId)}/runs/${encodeURIComponent(run.runId)}`;
  return { contentLocation: path, location: `${path}/stream` };
}

/** Runs: background, streamed and waited-for; joined, rejoined and cancelled. */
export function runRoutes(app: OpenAPIHono<ServerEnv>, context: ServerContext): void {
  const { runs, store } = context;

  const ownRun = async (owner: string, runId: string, threadId?: string): Promise<RunRecord> => {
    if (threadId !== undefined && !(await store.getThread(owner, threadId))) {
      throw new ResourceNotFoundError({ resource: "thread", id: threadId });
    }
    const run = await store.getRun(owner, runId, threadId);
    if (!run) throw new ResourceNotFoundError({ resource: "run", id: runId });
    return run;
  };

  /** The `/wait` and `/join` answer: the thread's values once the run ended. */
  const ended = async (
    c: Context<ServerEnv>,
    run: RunRecord,
    onDisconnect: "continue" | "cancel",
  ) => {
    const owner = c.var.user.id;
    const signal = c.req.raw.signal;
    const cancelOnDisconnect = () => {
      if (onDisconnect === "cancel") void runs.cancel(owner, run.threadId, run.runId, "interrupt");
    };
    signal.addEventListener("abort", cancelOnDisconnect, { once: true });
    try {
      const end = await runs.waitFor(owner, run.runId, signal);
      if (!end) throw new ResourceNotFoundError({ resource: "run", id: run.runId });
      const done = end.run;
      if (done.status === "error") {
        const error = done.error ?? { type: "Error", message: "The run failed" };
        return { __error__: { error: error.type, message: error.message } };
      }
      if (end.values) return end.values;
      const thread = await store.getThread(owner, done.threadId);
      const assistant = context.assistants.find(done.assistantId);
      if (!thread || !assistant)
        throw new ResourceNotFoundError({ resource: "thread", id: done.threadId });
      const state = await readThreadState(assistant, thread);
      return state.interrupts.length > 0
        ? { ...state.values, __interrupt__: state.interrupts }
        : state.values;
    } finally {
      signal.removeEventListener("abort", cancelOnDisconnect);
    }
  };

  const streamOf = (
    c: Context<ServerEnv>,
    run: RunRecord,
    afterSeq: number,
    modes: readonly string[] | undefined,
    cancelOnDisconnect: boolean,
  ) => {
    const owner = c.var.user.id;
    const { contentLocation, location } = runPaths(run);
    const body = runEventStream(
      {
        store,
        log: context.log,
        owner,
        runId: run.runId,
        afterSeq,
        renderer: protocolRenderer(modes),
        keepAliveMs: context.keepAliveMs,
        ...(cancelOnDisconnect
          ? {
              onDisconnect: () =>
                void runs.cancel(owner, run.threadId, run.runId, "interrupt").catch(() => {}),
            }
          : {}),
      },
      context.streams,
    );
    return new Response(body, { status: 200, headers: sseHeaders(contentLocation, location) });
  };

  const lastEventId = (c: Context<ServerEnv>): number => {
    const header = c.req.header("Last-Event-ID");
    const seq = header === undefined ? 0 : Number(header);
    return Number.isSafeInteger(seq) && seq > 0 ? seq : 0;
  };

  for (const threaded of [true, false]) {
    const prefix = threaded ? "/threads/{thread_id}/runs" : "/runs";
    const params = threaded ? { params: threadIdParam } : {};
    const threadOf = (c: Context<ServerEnv>) => (threaded ? c.req.param("thread_id") : undefined);
    const scope = threaded
      ? "on the thread"
      : "on a new thread of its own (kept with on_completion keep)";

    app.openapi(
      createRoute({
        method: "post",
        path: prefix,
        tags: ["Runs"],
        summary: `Start a background run ${scope}`,
        request: { ...params, ...runBody },
        responses: { 200: json(runSchema, "The run, pending"), ...errors },
      }),
      async (c) => {
        const run = await runs.create(c.var.user.id, threadOf(c), runCreation(c.req.valid("json")));
        const { contentLocation, location } = runPaths(run);
        c.header("Content-Location", contentLocation);
        c.header("Location", location);
        return c.json(wireRun(run), 200);
      },
    );

    app.openapi(
      createRoute({
        method: "post",
        path: `${prefix}/stream`,
        tags: ["Runs"],
        summary: `Start a run ${scope} and stream its events`,
        request: { ...params, ...runBody },
        responses: { 200: eventStream, ...errors },
      }),
      async (c) => {
        const creation = runCreation(c.req.valid("json"));
        const run = await runs.create(c.var.user.id, threadOf(c), creation);
        return streamOf(c, run, 0, undefined, creation.onDisconnect === "cancel") as never;
      },
    );

    app.openapi(
      createRoute({
        method: "post",
        path: `${prefix}/wait`,
        tags: ["Runs"],
        summary: `Start a run ${scope} and answer when it ends`,
        request: { ...params, ...runBody },
        responses: { 200: waitAnswer, ...errors },
      }),
      async (c) => {
        // A waited-for run is answered with its end, not its events: it logs none unless asked.
        const creation = runCreation(c.req.valid("json"), []);
        const run = await runs.create(c.var.user.id, threadOf(c), creation);
        const { contentLocation, location } = runPaths(run);
        c.header("Content-Location", contentLocation);
        c.header("Location", location);
        return c.json(await ended(c, run, creation.onDisconnect), 200);
      },
    );
  }

  app.openapi(
    createRoute({
      method: "get",
      path: "/threads/{thread_id}/runs",
      tags: ["Runs"],
      summary: "The thread's runs, newest first",
      request: { params: threadIdParam, query: runListQuerySchema },
      responses: { 200: json(z.array(runSchema), "The runs"), 404: errors[404] },
    }),
    async (c) => {
      const owner = c.var.user.id;
      const { thread_id: threadId } = c.req.valid("param");
      if (!(await store.getThread(owner, threadId))) {
        throw new ResourceNotFoundError({ resource: "thread", id: threadId });
      }
      const query = c.req.valid("query");
      const list = await store.listRuns(owner, threadId, {
        limit: query.limit,
        offset: query.offset,
        ...(query.status === undefined ? {} : { status: query.status }),
      });
      return c.json(list.map(wireRun), 200);
    },
  );

  app.openapi(
    createRoute({
      method: "get",
      path: "/threads/{thread_id}/runs/{run_id}",
      tags: ["Runs"],
      summary: "Get a run",
      request: { params: runIdParams },
      responses: { 200: json(runSchema, "The run"), 404: errors[404] },
    }),
    async (c) => {
      const { thread_id: threadId, run_id: runId } = c.req.valid("param");
      return c.json(wireRun(await ownRun(c.var.user.id, runId, threadId)), 200);
    },
  );

  app.openapi(
    createRoute({
      method: "delete",
      path: "/threads/{thread_id}/runs/{run_id}",
      tags: ["Runs"],
      summary: "Delete a run and its events (stopping it first if it is still going)",
      request: { params: runIdParams },
      responses: { 204: { description: "Deleted" }, 404: errors[404] },
    }),
    async (c) => {
      const { thread_id: threadId, run_id: runId } = c.req.valid("param");
      const owner = c.var.user.id;
      await ownRun(owner, runId, threadId);
      await runs.cancel(owner, threadId, runId, "interrupt");
      await store.deleteRun(runId);
      return c.body(null, 204);
    },
  );

  app.openapi(
    createRoute({
      method: "get",
      path: "/threads/{thread_id}/runs/{run_id}/join",
      tags: ["Runs"],
      summary: "Wait for a run to end; answers the thread's values",
      request: { params: runIdParams },
      responses: { 200: waitAnswer, 404: errors[404] },
    }),
    async (c) => {
      const { thread_id: threadId, run_id: runId } = c.req.valid("param");
      const run = await ownRun(c.var.user.id, runId, threadId);
      return c.json(await ended(c, run, "continue"), 200);
    },
  );

  for (const threaded of [true, false]) {
    app.openapi(
      createRoute({
        method: "get",
        path: threaded ? "/threads/{thread_id}/runs/{run_id}/stream" : "/runs/{run_id}/stream",
        tags: ["Runs"],
        summary: "Stream a run's events, from the start or after `Last-Event-ID`",
        request: {
          params: threaded ? runIdParams : runIdParams.pick({ run_id: true }),
          query: joinStreamQuerySchema,
        },
        responses: { 200: eventStream, 404: errors[404] },
      }),
      async (c) => {
        const threadId = threaded ? c.req.param("thread_id") : undefined;
        const run = await ownRun(c.var.user.id, c.req.param("run_id") ?? "", threadId);
        const query = c.req.valid("query");
        const modes = query.stream_mode === undefined ? undefined : [query.stream_mode].flat();
        return streamOf(c, run, lastEventId(c), modes, query.cancel_on_disconnect) as never;
      },
    );
  }

  app.openapi(
    createRoute({
      method: "post",
      path: "/threads/{thread_id}/runs/{run_id}/cancel",
      tags: ["Runs"],
      summary: "Stop a run: keep what it did (interrupt) or undo it (rollback)",
      request: { params: runIdParams, query: cancelQuerySchema },
      responses: {
        202: { description: "Stopping" },
        204: { description: "Stopped (wait=1)" },
        404: errors[404],
      },
    }),
    async (c) => {
      const { thread_id: threadId, run_id: runId } = c.req.valid("param");
      const { wait, action } = c.req.valid("query");
      if (wait) {
        await runs.cancel(c.var.user.id, threadId, runId, action);
        return c.body(null, 204);
      }
      // Not found is answered at once; the stop itself goes on after the answer.
      await ownRun(c.var.user.id, runId, threadId);
      runs
        .cancel(c.var.user.id, threadId, runId, action)
        .catch((error: unknown) =>
          context.logger.warn(`Cancelling run ${runId} failed: ${String(error)}`),
        );
      return c.body(null, 202);
    },
  );
}
