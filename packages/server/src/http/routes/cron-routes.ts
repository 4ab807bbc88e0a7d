import { randomUUID } from "node:crypto";
import { createRoute, type OpenAPIHono, z } from "@hono/zod-openapi";
import type { Context } from "hono";
import { nextTick } from "../../cron/cron-schedule.js";
import type { CronScheduler } from "../../cron/cron-scheduler.js";
import { RequestValidationError } from "../../error/request-validation-error.js";
import { ResourceNotFoundError } from "../../error/resource-not-found-error.js";
import type {
  CronPatch,
  CronRecord,
  CronRunTemplate,
  JsonObject,
} from "../../store/server-store.js";
import type { RunWebhooks } from "../../webhook/run-webhooks.js";
import { wireCron } from "../cron-wire-record.js";
import {
  cronCountSchema,
  cronCreateSchema,
  cronFields,
  cronIdParam,
  cronPatchSchema,
  cronSchema,
  cronSearchSchema,
  cronSelectionSchema,
} from "../cron-wire-schemas.js";
import type { ServerContext, ServerEnv } from "../server-context.js";
import { errorSchema, threadIdParam } from "../wire-schemas.js";
import { serverKeys } from "./run-routes.js";

type CronCreate = z.output<typeof cronCreateSchema>;
type CronPatchRequest = z.output<typeof cronPatchSchema>;

const json = <T extends z.ZodType>(schema: T, description: string) => ({
  content: { "application/json": { schema } },
  description,
});
const body = <T extends z.ZodType>(schema: T) => ({
  body: { content: { "application/json": { schema } } },
});

const notFound = json(errorSchema, "No such cron, assistant or thread (or not yours)");
const invalid = json(
  errorSchema,
  "A field does not fit: a schedule or time zone that cannot be read, input the graph refuses",
);

/** Refuses static breakpoints, as runs do. */
function refuseBreakpoints(request: CronCreate | CronPatchRequest): void {
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
}

/** A request's `config`, cleaned of what the server decides. */
function cleanConfig(config: JsonObject): JsonObject {
  const configurable = (config.configurable ?? {}) as JsonObject;
  return {
    ...config,
    configurable: Object.fromEntries(
      Object.entries(configurable).filter(([key]) => !serverKeys.has(key)),
    ),
  };
}

/** An instant as the store keeps times: UTC, with milliseconds. */
const isoTime = (time: string | null): string | null =>
  time === null ? null : new Date(time).toISOString();

const modesOf = (modes: string | readonly string[]): readonly string[] =>
  typeof modes === "string" ? [modes] : modes;

/**
 * Crons: runs on a schedule, each tick on the cron's thread or on a new one. Each belongs to
 * the user who made it; another user's is a 404.
 */
export function cronRoutes(
  app: OpenAPIHono<ServerEnv>,
  context: ServerContext,
  scheduler: CronScheduler,
  webhooks: RunWebhooks,
): void {
  const { store, assistants } = context;

  const ownCron = async (owner: string, cronId: string): Promise<CronRecord> => {
    const cron = await store.getCron(owner, cronId);
    if (!cron) throw new ResourceNotFoundError({ resource: "cron", id: cronId });
    return cron;
  };

  /** Checks the input against the assistant's graph, as each tick's run will. */
  const checkInput = (assistantId: string, input: unknown) => {
    if (input === undefined || input === null) return;
    assistants.find(assistantId)?.graphInput(input);
  };

  const create = async (c: Context<ServerEnv>, request: CronCreate, threadId: string | null) => {
    const owner = c.var.user.id;
    refuseBreakpoints(request);
    const assistant = assistants.find(request.assistant_id);
    if (!assistant) {
      throw new ResourceNotFoundError({ resource: "assistant", id: request.assistant_id });
    }
    if (threadId !== null) {
      const thread = await store.getThread(owner, threadId);
      if (!thread) throw new ResourceNotFoundError({ resource: "thread", id: threadId });
      if (thread.assistantId !== null && thread.assistantId !== assistant.assistantId) {
        throw new RequestValidationError({
          issues: [
            {
              path: ["assistant_id"],
              message: `Thread ${threadId} holds the state of another assistant's graph`,
            },
          ],
        });
      }
    }
    checkInput(assistant.assistantId, request.input);
    // Refused now, as a run's would be, rather than failing every tick.
    if (request.webhook != null) webhooks.check(request.webhook);
    const timing = {
      schedule: request.schedule,
      timezone: request.timezone ?? null,
      endTime: isoTime(request.end_time ?? null),
    };
    const next = request.enabled ? nextTick(timing, new Date()) : null;
    const run: CronRunTemplate = {
      input: request.input ?? null,
      config: cleanConfig(request.config ?? {}),
      multitaskStrategy: request.multitask_strategy,
      streamMode: request.stream_mode === undefined ? ["values"] : modesOf(request.stream_mode),
      webhook: request.webhook ?? null,
    };
    const cron = await store.createCron({
      cronId: randomUUID(),
      owner,
      assistantId: assistant.assistantId,
      threadId,
      ...timing,
      enabled: request.enabled,
      nextRunDate: next === null ? null : next.toISOString(),
      onRunCompleted: request.on_run_completed,
      run,
      metadata: request.metadata ?? {},
    });
    await scheduler.changed(cron.cronId, cron);
    return wireCron(cron);
  };

  app.openapi(
    createRoute({
      method: "post",
      path: "/runs/crons",
      tags: ["Crons"],
      summary: "Schedule runs, each tick on a new thread of its own",
      request: body(cronCreateSchema),
      responses: { 200: json(cronSchema, "The new cron"), 404: notFound, 422: invalid },
    }),
    async (c) => c.json(await create(c, c.req.valid("json"), null), 200),
  );

  app.openapi(
    createRoute({
      method: "post",
      path: "/threads/{thread_id}/runs/crons",
      tags: ["Crons"],
      summary: "Schedule runs on the thread",
      request: { params: threadIdParam, ...body(cronCreateSchema) },
      responses: { 200: json(cronSchema, "The new cron"), 404: notFound, 422: invalid },
    }),
    async (c) => c.json(await create(c, c.req.valid("json"), c.req.valid("param").thread_id), 200),
  );

  app.openapi(
    createRoute({
      method: "patch",
      path: "/runs/crons/{cron_id}",
      tags: ["Crons"],
      summary:
        "Change a cron; a new schedule, time zone or end, or enabling it, moves its next tick from now",
      request: { params: cronIdParam, ...body(cronPatchSchema) },
      responses: { 200: json(cronSchema, "The cron as changed"), 404: notFound, 422: invalid },
    }),
    async (c) => {
      const owner = c.var.user.id;
      const request = c.req.valid("json");
      refuseBreakpoints(request);
      const cron = await ownCron(owner, c.req.valid("param").cron_id);
      checkInput(cron.assistantId, request.input);
      if (request.webhook != null) webhooks.check(request.webhook);
      const patch: { -readonly [K in keyof CronPatch]: CronPatch[K] } = {};
      if (request.schedule !== undefined) patch.schedule = request.schedule;
      if (request.timezone !== undefined) patch.timezone = request.timezone;
      if (request.end_time !== undefined) patch.endTime = isoTime(request.end_time);
      if (request.enabled !== undefined) patch.enabled = request.enabled;
      if (request.on_run_completed !== undefined) patch.onRunCompleted = request.on_run_completed;
      if (request.metadata !== undefined)
        patch.metadata = { ...cron.metadata, ...request.metadata };
      const run = {
        ...cron.run,
        ...(request.input === undefined ? {} : { input: request.input }),
        ...(request.config === undefined ? {} : { config: cleanConfig(request.config) }),
        ...(request.multitask_strategy === undefined
          ? {}
          : { multitaskStrategy: request.multitask_strategy }),
        ...(request.stream_mode === undefined ? {} : { streamMode: modesOf(request.stream_mode) }),
        ...(request.webhook === undefined ? {} : { webhook: request.webhook }),
      };
      if (JSON.stringify(run) !== JSON.stringify(cron.run)) patch.run = run;
      const changed = { ...cron, ...patch };
      if (!changed.enabled) {
        patch.nextRunDate = null;
      } else if (
        patch.schedule !== undefined ||
        patch.timezone !== undefined ||
        patch.endTime !== undefined ||
        !cron.enabled
      ) {
        const next = nextTick(changed, new Date());
        patch.nextRunDate = next === null ? null : next.toISOString();
      }
      const updated = await store.updateCron(owner, cron.cronId, patch);
      if (!updated) throw new ResourceNotFoundError({ resource: "cron", id: cron.cronId });
      await scheduler.changed(updated.cronId, updated);
      return c.json(wireCron(updated), 200);
    },
  );

  app.openapi(
    createRoute({
      method: "delete",
      path: "/runs/crons/{cron_id}",
      tags: ["Crons"],
      summary: "Delete a cron (the runs it made stay)",
      request: { params: cronIdParam },
      responses: { 204: { description: "Deleted" }, 404: notFound },
    }),
    async (c) => {
      const { cron_id: cronId } = c.req.valid("param");
      if (!(await store.deleteCron(c.var.user.id, cronId))) {
        throw new ResourceNotFoundError({ resource: "cron", id: cronId });
      }
      await scheduler.changed(cronId, undefined);
      return c.body(null, 204);
    },
  );

  app.openapi(
    createRoute({
      method: "post",
      path: "/runs/crons/search",
      tags: ["Crons"],
      summary: "Search your crons",
      request: body(cronSearchSchema),
      responses: {
        200: json(z.array(cronSelectionSchema), "The matching crons (only `select`'s fields)"),
      },
    }),
    async (c) => {
      const search = c.req.valid("json");
      const crons = await store.searchCrons(c.var.user.id, {
        ...filterOf(search, context),
        ...(search.enabled === undefined ? {} : { enabled: search.enabled }),
        limit: search.limit,
        offset: search.offset,
        sortBy: search.sort_by,
        sortOrder: search.sort_order,
      });
      const now = new Date().toISOString();
      const fields = search.select ?? cronFields.filter((field) => field !== "now");
      const selected = crons.map((cron) => {
        const wire: Record<string, unknown> = { ...wireCron(cron), now };
        return Object.fromEntries(
          fields.filter((field) => field in wire).map((field) => [field, wire[field]]),
        );
      });
      return c.json(selected, 200);
    },
  );

  app.openapi(
    createRoute({
      method: "post",
      path: "/runs/crons/count",
      tags: ["Crons"],
      summary: "Count your crons",
      request: body(cronCountSchema),
      responses: { 200: json(z.number().int(), "How many match") },
    }),
    async (c) =>
      c.json(await store.countCrons(c.var.user.id, filterOf(c.req.valid("json"), context)), 200),
  );
}

/**
 * The filter fields of a search or count request, in the store's terms; an assistant may be
 * named by its graph's name, as when a cron is created.
 */
function filterOf(request: z.output<typeof cronCountSchema>, context: ServerContext) {
  const assistantId =
    request.assistant_id === undefined
      ? undefined
      : (context.assistants.find(request.assistant_id)?.assistantId ?? request.assistant_id);
  return {
    ...(assistantId === undefined ? {} : { assistantId }),
    ...(request.thread_id === undefined ? {} : { threadId: request.thread_id }),
    ...(request.metadata === undefined ? {} : { metadata: request.metadata }),
  };
}
