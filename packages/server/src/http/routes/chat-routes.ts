import { createRoute, type OpenAPIHono, z } from "@hono/zod-openapi";
import type { Context } from "hono";
import type { ServedAssistant } from "../../assistant/served-assistant.js";
import { chatRequestSchema, chatTurnOf } from "../../chat/chat-request.js";
import { uiMessageRenderer } from "../../chat/ui-message-chunks.js";
import { NothingToResumeError } from "../../error/nothing-to-resume-error.js";
import { RequestValidationError } from "../../error/request-validation-error.js";
import { ResourceNotFoundError } from "../../error/resource-not-found-error.js";
import { isRunFinished } from "../../run/run-manager.js";
import { readThreadState } from "../../run/thread-state.js";
import type { RunRecord, ThreadRecord } from "../../store/server-store.js";
import { runEventStream, sseHeaders } from "../run-event-stream.js";
import type { ServerContext, ServerEnv } from "../server-context.js";
import { errorSchema } from "../wire-schemas.js";

const uiStream = {
  content: { "text/event-stream": { schema: z.string() } },
  description:
    "The turn as the AI SDK's UI message stream (v1): `data:` lines of chunks, ending with `data: [DONE]`.",
};
const errorAnswer = (description: string) => ({
  content: { "application/json": { schema: errorSchema } },
  description,
});
const params = z.object({ name: z.string().min(1).max(256) });

/** What a turn's run remembers for its stream to be replayed the same way. */
interface ChatRunMetadata {
  chat_message_id: string;
  chat_declined: string[];
  chat_shown: string[];
}

/**
 * The AI SDK's chat transport (`useChat` with `DefaultChatTransport`) for every served agent:
 * a chat is a thread of the caller, kept on the server, and each turn a run whose durable
 * event log is streamed as UI message chunks.
 */
export function chatRoutes(app: OpenAPIHono<ServerEnv>, context: ServerContext): void {
  const { store, runs } = context;

  const agentNamed = (name: string): ServedAssistant => {
    const assistant = context.assistants.find(name);
    if (assistant?.kind !== "agent")
      throw new ResourceNotFoundError({ resource: "assistant", id: name });
    return assistant;
  };

  const turnStream = (c: Context<ServerEnv>, run: RunRecord) => {
    const metadata = run.metadata as unknown as ChatRunMetadata;
    const body = runEventStream(
      {
        store,
        log: context.log,
        owner: c.var.user.id,
        runId: run.runId,
        afterSeq: 0,
        renderer: uiMessageRenderer({
          messageId: metadata.chat_message_id,
          declinedToolCallIds: new Set(metadata.chat_declined),
          shownToolCallIds: new Set(metadata.chat_shown),
        }),
        keepAliveMs: context.keepAliveMs,
      },
      context.streams,
    );
    const path = `/threads/${encodeURIComponent(run.threadId)}/runs/${encodeURIComponent(run.runId)}`;
    return new Response(body, {
      status: 200,
      headers: { ...sseHeaders(path, `${path}/stream`), "x-vercel-ai-ui-message-stream": "v1" },
    });
  };

  app.openapi(
    createRoute({
      method: "post",
      path: "/agents/{name}/chat",
      tags: ["Chat"],
      summary: "One turn of a chat with an agent, as the AI SDK's UI message stream",
      request: {
        params,
        body: { content: { "application/json": { schema: chatRequestSchema } } },
      },
      responses: {
        200: uiStream,
        404: errorAnswer("No such agent, or the chat is another user's"),
        409: errorAnswer("The chat is answering already, or there is no approval to answer"),
        422: errorAnswer("The last message is neither a user message nor an approval answer"),
      },
    }),
    async (c) => {
      const assistant = agentNamed(c.req.valid("param").name);
      const request = c.req.valid("json");
      const owner = c.var.user.id;
      const thread = await chatThread(owner, request.id);
      const turn = chatTurnOf(request.messages);
      if (!turn) {
        throw new RequestValidationError({
          issues: [
            {
              path: ["json", "messages", request.messages.length - 1],
              message: "The last message must be a user message or an answer to a tool approval",
            },
          ],
        });
      }
      let run: RunRecord;
      if (turn.kind === "message") {
        const messageId = request.messageId ?? `msg-${crypto.randomUUID()}`;
        run = await runs.create(owner, thread.threadId, {
          assistantId: assistant.assistantId,
          input: { messages: [{ role: "user", content: turn.text, id: turn.id }] },
          streamMode: ["events"],
          multitaskStrategy: "reject",
          onDisconnect: "continue",
          metadata: {
            chat_message_id: messageId,
            chat_declined: [],
            chat_shown: [],
          } satisfies ChatRunMetadata,
        });
      } else {
        const last = request.messages.at(-1);
        const lastMessageId = last?.id ?? `msg-${crypto.randomUUID()}`;
        const shown = (last?.parts ?? []).flatMap((part) =>
          typeof part.toolCallId === "string" ? [part.toolCallId] : [],
        );
        await approvalPending(assistant, thread, turn.approvalId);
        run = await runs.create(owner, thread.threadId, {
          assistantId: assistant.assistantId,
          resume: turn.approved,
          streamMode: ["events"],
          multitaskStrategy: "reject",
          onDisconnect: "continue",
          metadata: {
            chat_message_id: lastMessageId,
            chat_declined: turn.approved ? [] : [turn.approvalId],
            chat_shown: shown,
          } satisfies ChatRunMetadata,
        });
      }
      return turnStream(c, run) as never;
    },
  );

  app.openapi(
    createRoute({
      method: "get",
      path: "/agents/{name}/chat/{thread_id}/stream",
      tags: ["Chat"],
      summary: "Resume the chat's answering turn from its start (204 when none is answering)",
      request: { params: params.extend({ thread_id: z.string().min(1).max(256) }) },
      responses: {
        200: uiStream,
        204: { description: "No turn is answering" },
        404: errorAnswer("No such agent or chat (or not yours)"),
      },
    }),
    async (c) => {
      // The chat's id is its thread's.
      const { name, thread_id: id } = c.req.valid("param");
      agentNamed(name);
      const owner = c.var.user.id;
      if (!(await store.getThread(owner, id)))
        throw new ResourceNotFoundError({ resource: "chat", id });
      const [latest] = await store.listRuns(owner, id, { limit: 1, offset: 0 });
      if (!latest || isRunFinished(latest)) return c.body(null, 204);
      return turnStream(c, latest) as never;
    },
  );

  /** The caller's chat, started on first use; another user's chat of that id is a 404. */
  async function chatThread(owner: string, id: string): Promise<ThreadRecord> {
    const existing = await store.getThread(owner, id);
    if (existing) return existing;
    const created = await store.createThread(
      { threadId: id, owner, metadata: {} },
      { ifExists: "do_nothing" },
    );
    if (created === "taken") throw new ResourceNotFoundError({ resource: "chat", id });
    return created;
  }

  /**
   * The approval answered must be the thread's pending one (an answer repeated after the run
   * went on is let through: the run manager returns the run that answered it).
   */
  async function approvalPending(
    assistant: ServedAssistant,
    thread: ThreadRecord,
    toolCallId: string,
  ): Promise<void> {
    const { interrupts } = await readThreadState(assistant, thread);
    if (interrupts.length === 0) return;
    const first = interrupts[0]?.value as
      | { type?: string; call?: { toolCallId?: string } }
      | undefined;
    if (first?.type !== "tool-approval" || first.call?.toolCallId !== toolCallId) {
      throw new NothingToResumeError({ threadId: thread.threadId, threadStatus: thread.status });
    }
  }
}
