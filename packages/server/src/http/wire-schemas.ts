import { z } from "@hono/zod-openapi";
import { streamModes } from "../run/stream-mode.js";

/**
 * The wire's shapes: LangGraph's Agent Protocol as `@langchain/langgraph-sdk` reads and
 * writes it (snake_case, as the protocol names its fields). Requests are validated against
 * these, responses typed by them, and `/openapi.json` generated from both.
 */

const metadata = z.record(z.string(), z.unknown()).openapi("Metadata");

const id = z.string().min(1).max(256);

/** A run's `config`: `configurable` reaches the graph's nodes; the server sets its ids. */
export const configSchema = z
  .looseObject({
    tags: z.array(z.string()).optional(),
    recursion_limit: z.number().int().min(1).optional(),
    configurable: z.looseObject({}).optional(),
  })
  .openapi("Config");

export const errorSchema = z
  .object({
    error: z.object({
      type: z.string().openapi({ example: "ResourceNotFoundError" }),
      message: z.string(),
      issues: z
        .array(z.object({ path: z.array(z.union([z.string(), z.number()])), message: z.string() }))
        .optional(),
    }),
  })
  .openapi("Error");

export const assistantSchema = z
  .object({
    assistant_id: z.string(),
    graph_id: z.string(),
    name: z.string(),
    description: z.string().nullable(),
    config: z.looseObject({}),
    context: z.looseObject({}),
    metadata,
    version: z.number().int(),
    created_at: z.string(),
    updated_at: z.string(),
  })
  .openapi("Assistant");

export const assistantSearchSchema = z
  .object({
    graph_id: z.string().optional(),
    name: z.string().optional(),
    metadata: metadata.optional(),
    limit: z.number().int().min(1).max(1000).default(10),
    offset: z.number().int().min(0).default(0),
  })
  .openapi("AssistantSearch");

export const assistantGraphSchema = z
  .object({
    nodes: z.array(z.object({ id: z.string(), name: z.string(), data: z.string() })),
    edges: z.array(z.object({ source: z.string(), target: z.string(), conditional: z.boolean() })),
  })
  .openapi("AssistantGraph");

export const graphSchemasSchema = z
  .object({
    graph_id: z.string(),
    input_schema: z.looseObject({}).nullable(),
    output_schema: z.looseObject({}).nullable(),
    state_schema: z.looseObject({}).nullable(),
    config_schema: z.looseObject({}).nullable(),
    context_schema: z.looseObject({}).nullable(),
  })
  .openapi("GraphSchemas");

const threadStatus = z.enum(["idle", "busy", "interrupted", "error"]);

export const interruptSchema = z
  .object({
    id: z.string(),
    value: z.unknown(),
    when: z.literal("during"),
    resumable: z.boolean(),
    ns: z.array(z.string()),
  })
  .openapi("Interrupt");

export const threadSchema = z
  .object({
    thread_id: z.string(),
    created_at: z.string(),
    updated_at: z.string(),
    state_updated_at: z.string(),
    metadata,
    status: threadStatus,
    values: z.looseObject({}).nullable(),
    interrupts: z.record(z.string(), z.array(interruptSchema)),
    config: z.looseObject({}),
    error: z.unknown().nullable(),
  })
  .openapi("Thread");

export const threadCreateSchema = z
  .object({
    thread_id: id.optional(),
    metadata: metadata.optional(),
    if_exists: z.enum(["raise", "do_nothing"]).default("raise"),
  })
  .openapi("ThreadCreate");

export const threadSearchSchema = z
  .object({
    metadata: metadata.optional(),
    status: threadStatus.optional(),
    ids: z.array(id).max(1000).optional(),
    limit: z.number().int().min(1).max(1000).default(10),
    offset: z.number().int().min(0).default(0),
    sort_by: z.enum(["thread_id", "status", "created_at", "updated_at"]).default("created_at"),
    sort_order: z.enum(["asc", "desc"]).default("desc"),
  })
  .openapi("ThreadSearch");

export const threadPatchSchema = z.object({ metadata }).openapi("ThreadPatch");

const checkpointRef = z.object({
  thread_id: z.string(),
  checkpoint_ns: z.string(),
  checkpoint_id: z.string().nullable(),
  checkpoint_map: z.looseObject({}).nullable(),
});

export const threadStateSchema = z
  .object({
    values: z.looseObject({}),
    next: z.array(z.string()),
    checkpoint: checkpointRef,
    metadata: z.looseObject({}),
    created_at: z.string().nullable(),
    parent_checkpoint: checkpointRef.nullable(),
    tasks: z.array(
      z.object({
        id: z.string(),
        name: z.string(),
        error: z.string().nullable(),
        interrupts: z.array(interruptSchema),
        checkpoint: checkpointRef.nullable(),
        state: z.null(),
      }),
    ),
    interrupts: z.array(interruptSchema),
  })
  .openapi("ThreadState");

export const threadStateUpdateSchema = z
  .looseObject({
    values: z.unknown().optional().openapi({
      description:
        "The update: state keys, merged through the state's reducers (an agent's `messages` in the forms runs take). `null` writes nothing (with `as_node`: only moves the thread on).",
    }),
    as_node: z.string().min(1).optional().openapi({
      description:
        "Write the update as this node: the thread then moves on as if it had just ended. Without it, what runs next stays as it was.",
    }),
    checkpoint_id: z.string().optional(),
    checkpoint: z.looseObject({ checkpoint_id: z.string().optional() }).optional(),
  })
  .openapi("ThreadStateUpdate");

export const threadStateUpdateAnswerSchema = z
  .object({ checkpoint: checkpointRef })
  .openapi("ThreadStateUpdateAnswer");

/** A checkpoint named by id, or by a config holding `configurable.checkpoint_id`. */
const checkpointSelector = z.union([
  z.string(),
  z.object({ configurable: z.looseObject({ checkpoint_id: z.string().optional() }) }),
  z.looseObject({ checkpoint_id: z.string().optional() }),
]);

export const historyRequestSchema = z
  .object({
    limit: z.number().int().min(1).max(1000).default(10),
    before: checkpointSelector.optional(),
    metadata: metadata.optional(),
    checkpoint: z.looseObject({ checkpoint_id: z.string().optional() }).optional(),
  })
  .openapi("HistoryRequest");

const runStatus = z.enum(["pending", "running", "error", "success", "timeout", "interrupted"]);
const multitaskStrategy = z.enum(["reject", "enqueue", "interrupt", "rollback"]);

export const runSchema = z
  .object({
    run_id: z.string(),
    thread_id: z.string(),
    assistant_id: z.string(),
    created_at: z.string(),
    updated_at: z.string(),
    status: runStatus,
    metadata,
    multitask_strategy: multitaskStrategy,
    kwargs: z.looseObject({}),
  })
  .openapi("Run");

const streamMode = z.enum(streamModes);

export const runCreateSchema = z
  .looseObject({
    assistant_id: id,
    input: z.unknown().optional(),
    command: z.looseObject({ resume: z.unknown().optional() }).nullable().optional(),
    config: configSchema.optional(),
    metadata: metadata.optional(),
    stream_mode: z.union([streamMode, z.array(streamMode)]).optional(),
    multitask_strategy: multitaskStrategy.default("reject"),
    on_disconnect: z.enum(["continue", "cancel"]).default("continue"),
    checkpoint_id: z.string().optional(),
    checkpoint: z.looseObject({ checkpoint_id: z.string().optional() }).optional(),
    if_not_exists: z.enum(["create", "reject"]).optional(),
    on_completion: z.enum(["delete", "keep"]).optional(),
    webhook: z
      .string()
      .max(2048)
      .optional()
      .openapi({ description: "An http(s) URL POSTed to, signed, when the run ends." }),
    interrupt_before: z
      .union([z.literal("*"), z.array(z.string())])
      .optional()
      .openapi({ description: "Not supported: a non-empty value is refused." }),
    interrupt_after: z
      .union([z.literal("*"), z.array(z.string())])
      .optional()
      .openapi({ description: "Not supported: a non-empty value is refused." }),
  })
  .openapi("RunCreate");

export const runListQuerySchema = z.object({
  limit: z.coerce.number().int().min(1).max(1000).default(10),
  offset: z.coerce.number().int().min(0).default(0),
  status: runStatus.optional(),
});

export const cancelQuerySchema = z.object({
  wait: z
    .enum(["0", "1", "true", "false"])
    .default("0")
    .transform((value) => value === "1" || value === "true"),
  action: z.enum(["interrupt", "rollback"]).default("interrupt"),
});

export const joinStreamQuerySchema = z.object({
  cancel_on_disconnect: z
    .enum(["0", "1", "true", "false"])
    .default("0")
    .transform((value) => value === "1" || value === "true"),
  stream_mode: z.union([streamMode, z.array(streamMode)]).optional(),
});

export const threadIdParam = z.object({ thread_id: id });
export const runIdParams = z.object({ thread_id: id, run_id: id });
export const assistantIdParam = z.object({ assistant_id: id });
