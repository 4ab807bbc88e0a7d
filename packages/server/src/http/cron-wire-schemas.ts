import { z } from "@hono/zod-openapi";
import { scheduleProblem, timezoneProblem } from "../cron/cron-schedule.js";
import { streamModes } from "../run/stream-mode.js";
import { configSchema } from "./wire-schemas.js";

/**
 * The wire's shapes of crons, as `@langchain/langgraph-sdk`'s `client.crons` writes and reads
 * them (snake_case, as the protocol names its fields).
 */

const metadata = z.record(z.string(), z.unknown());
const id = z.string().min(1).max(256);
const multitaskStrategy = z.enum(["reject", "enqueue", "interrupt", "rollback"]);
const streamMode = z.enum(streamModes);
const onRunCompleted = z.enum(["delete", "keep"]);

const schedule = z
  .string()
  .superRefine((value, context) => {
    const problem = scheduleProblem(value);
    if (problem !== undefined) context.addIssue({ code: "custom", message: problem });
  })
  .openapi({
    description:
      "A cron expression: `minute hour day month weekday`, or 6 fields with seconds first.",
    example: "0 9 * * 1-5",
  });

const timezone = z
  .string()
  .superRefine((value, context) => {
    const problem = timezoneProblem(value);
    if (problem !== undefined) context.addIssue({ code: "custom", message: problem });
  })
  .openapi({ description: "The IANA time zone the schedule is read in. Default UTC." });

const endTime = z.iso
  .datetime({ offset: true })
  .openapi({ description: "No tick after this instant (ISO 8601)." });

const breakpoints = z
  .union([z.literal("*"), z.array(z.string())])
  .optional()
  .openapi({ description: "Not supported: a non-empty value is refused." });

/** What a cron's ticks run, as the request gives it. */
const runFields = {
  input: z.unknown().optional(),
  config: configSchema.optional(),
  metadata: metadata.optional(),
  webhook: z
    .url({ protocol: /^https?$/ })
    .nullable()
    .optional()
    .openapi({
      description: "A URL told when each of the cron's runs ends, as a run's own `webhook`.",
    }),
  stream_mode: z.union([streamMode, z.array(streamMode)]).optional(),
  interrupt_before: breakpoints,
  interrupt_after: breakpoints,
};

export const cronCreateSchema = z
  .looseObject({
    assistant_id: id,
    schedule,
    timezone: timezone.nullable().optional(),
    end_time: endTime.nullable().optional(),
    enabled: z.boolean().default(true),
    multitask_strategy: multitaskStrategy.default("reject").openapi({
      description:
        "What a tick does when the cron's thread is still busy: `reject` skips the tick (and logs it).",
    }),
    on_run_completed: onRunCompleted.default("delete").openapi({
      description:
        "Thread-less crons: each tick's new thread is deleted once its run ends (`delete`), or kept.",
    }),
    ...runFields,
  })
  .openapi("CronCreate");

export const cronPatchSchema = z
  .looseObject({
    schedule: schedule.optional(),
    timezone: timezone.nullable().optional(),
    end_time: endTime.nullable().optional().openapi({
      description: "No tick after this instant; `null` removes the end.",
    }),
    enabled: z.boolean().optional(),
    multitask_strategy: multitaskStrategy.optional(),
    on_run_completed: onRunCompleted.optional(),
    ...runFields,
  })
  .openapi("CronPatch");

const sortBy = z.enum([
  "cron_id",
  "assistant_id",
  "thread_id",
  "created_at",
  "updated_at",
  "next_run_date",
]);

/** The fields `select` may name. */
export const cronFields = [
  "cron_id",
  "assistant_id",
  "thread_id",
  "on_run_completed",
  "end_time",
  "schedule",
  "timezone",
  "created_at",
  "updated_at",
  "payload",
  "user_id",
  "next_run_date",
  "metadata",
  "enabled",
  "now",
] as const;

export const cronCountSchema = z
  .object({
    assistant_id: id.optional(),
    thread_id: id.optional(),
    metadata: metadata.optional(),
  })
  .openapi("CronCount");

export const cronSearchSchema = cronCountSchema
  .extend({
    enabled: z.boolean().optional(),
    limit: z.number().int().min(1).max(1000).default(10),
    offset: z.number().int().min(0).default(0),
    sort_by: sortBy.default("created_at"),
    sort_order: z.enum(["asc", "desc"]).default("desc"),
    select: z.array(z.enum(cronFields)).min(1).optional().openapi({
      description: "Answer only these fields of each cron (`now`: the server's time).",
    }),
  })
  .openapi("CronSearch");

export const cronSchema = z
  .object({
    cron_id: z.string(),
    assistant_id: z.string(),
    thread_id: z.string().nullable(),
    on_run_completed: onRunCompleted.optional().openapi({
      description: "Thread-less crons only.",
    }),
    end_time: z.string().nullable(),
    schedule: z.string(),
    timezone: z.string().nullable(),
    created_at: z.string(),
    updated_at: z.string(),
    payload: z.looseObject({}).openapi({ description: "What each tick's run is created with." }),
    user_id: z.string().nullable(),
    next_run_date: z.string().nullable(),
    metadata,
    enabled: z.boolean(),
  })
  .openapi("Cron");

/** A cron as `select` leaves it. */
export const cronSelectionSchema = cronSchema.partial().extend({ now: z.string().optional() });

export const cronIdParam = z.object({ cron_id: id });
