import { PostgresSaver } from "@framework/checkpoint-postgres";
import type { AppRun } from "@framework/cli-kit";
import { ConfigurationError } from "@framework/core";
import {
  createServer,
  type FrameworkServer,
  InsecureServerError,
  type ServerAddress,
  type ServerOptions,
} from "@framework/server";
import { PostgresServerStore } from "@framework/server-postgres";
import { serverQueue } from "@framework/server-queue";
import { referenceAssistantNames, referenceAssistants } from "./reference-assistants.js";

/** Where `pnpm serve` listens and keeps its threads. */
export interface ServeRequest {
  /** 0 picks a free port. */
  port: number;
  host: string;
  /** The SQLite file of threads, runs, their events and checkpoints (`--db`). */
  databasePath: string;
  /**
   * Keep them in PostgreSQL instead (`--postgres`, `--schema`): every instance started on the
   * same database and schema serves the same threads and runs.
   */
  postgres?: { connectionString: string; schema: string };
  /**
   * Only submit runs, for workers (`pnpm serve --worker`) to execute (`--queue`, `--redis`,
   * `--queue-name`); needs `postgres`.
   */
  queue?: { redis: string; queueName: string };
  /**
   * Serves the studio at `/studio/` too (`--studio`, `pnpm studio`). Offline, the crew's tools
   * that ask first then ask, since the studio's Approvals view is there to answer them.
   */
  studio?: boolean;
}

/**
 * What the offline server says instead of asking: the crew's tools that ask first run unasked,
 * since every call goes to a local fake.
 */
export const offlineApprovalNote =
  "offline: advisory's web search and charts run without asking, since every call goes to a local fake (served for real, each such call pauses its run until a client answers with command: { resume: true })";

/** The line that says the server is up: its URL and what it serves. */
export function servingLine(url: string, offline: boolean): string {
  const names = referenceAssistantNames.join(", ");
  return `serving ${url} — assistants: ${names}${offline ? " (offline: sample data)" : ""}`;
}

/** What the offline studio says: the crew's tools that ask first wait in Approvals. */
export const studioApprovalNote =
  "offline studio: advisory's web search and charts ask first, as when served for real; answer them in the studio's Approvals view";

/**
 * Serves the reference agents (`research`, `finance`, `advisory`) over HTTP with
 * `@framework/server` until Ctrl-C or SIGTERM, then shuts the server down gracefully: it stops
 * accepting requests and lets running runs reach a checkpoint; those still running resume when
 * a server starts again on the same database. Prints the URL and the API reference's once it
 * listens.
 *
 * @throws ConfigurationError when `host` is not this machine's: it has no authentication.
 */
export async function serveReferenceAgents(run: AppRun, request: ServeRequest): Promise<void> {
  const stop = stopRequest(run.signal);
  try {
    const studio = request.studio === true;
    const assistants = await referenceAssistants(run.llm, {
      approveAll: run.offline && !studio,
      loggerFor: (scope) => run.progress.logger(scope),
    });
    const shared = request.postgres && (await sharedStorage(request.postgres, request.queue));
    const server = createServer({
      ...assistants,
      ...(shared ? shared.options : { databasePath: request.databasePath }),
      logger: run.progress.logger("server"),
      studio,
    });
    try {
      const { url, studioURL } = await listen(server, request);
      run.print(`${servingLine(url, run.offline)}\nAPI reference: ${url}/docs`);
      if (studioURL) run.print(`Studio: ${studioURL}`);
      if (run.offline) run.progress.note(studio ? studioApprovalNote : offlineApprovalNote);
      await stop.requested;
      run.progress.note(
        "stopping: running runs may reach a checkpoint first (a second Ctrl-C stops at once; they resume on the next start)",
      );
    } finally {
      await server.close();
      await shared?.close();
    }
  } finally {
    stop.dispose();
  }
}

/**
 * A `PostgresSaver` and a `PostgresServerStore` on it, their tables set up (so a database that
 * cannot be reached fails the start, not the first request); with `queue`, a server queue on
 * them instead, closed by the server.
 */
async function sharedStorage(
  postgres: { connectionString: string; schema: string },
  queue: ServeRequest["queue"],
): Promise<{ options: ServerOptions; close(): Promise<void> }> {
  if (queue) {
    const submitting = serverQueue({
      redis: queue.redis,
      postgres: postgres.connectionString,
      schema: postgres.schema,
      queueName: queue.queueName,
    });
    try {
      await submitting.store.setup();
    } catch (error) {
      await submitting.close();
      throw error;
    }
    // The server closes its queue.
    return { options: { queue: submitting }, close: async () => {} };
  }
  const checkpointer = new PostgresSaver(postgres);
  const store = new PostgresServerStore({ checkpointer });
  try {
    await store.setup();
  } catch (error) {
    await checkpointer.close();
    throw error;
  }
  return {
    options: { checkpointer, store },
    async close() {
      await store.close();
      await checkpointer.close();
    },
  };
}

async function listen(
  server: FrameworkServer,
  { port, host }: ServeRequest,
): Promise<ServerAddress> {
  try {
    return await server.listen({ port, host });
  } catch (error) {
    if (!InsecureServerError.isInstance(error)) throw error;
    throw new ConfigurationError({
      setting: "--host",
      message: `--host ${host}: this server has no authentication, so it serves this machine only (127.0.0.1, ::1 or localhost). To serve a network, use createServer from @framework/server with an auth option.`,
    });
  }
}

/**
 * Settles on Ctrl-C (`signal`, which the app aborts) or SIGTERM. A second Ctrl-C meets the
 * default handler and ends the process at once; SIGTERM is handled until the end, since a
 * supervisor and `pnpm` may both send it, and a copy must not cut the shutdown short.
 */
export function stopRequest(signal: AbortSignal): { requested: Promise<void>; dispose(): void } {
  let onStop = () => {};
  const requested = new Promise<void>((resolve) => {
    onStop = resolve;
  });
  const onTerminate = () => onStop();
  process.on("SIGTERM", onTerminate);
  if (signal.aborted) onStop();
  else signal.addEventListener("abort", onStop, { once: true });
  return {
    requested,
    dispose() {
      process.off("SIGTERM", onTerminate);
      signal.removeEventListener("abort", onStop);
    },
  };
}
