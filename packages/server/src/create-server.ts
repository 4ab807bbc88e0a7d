import type { Server } from "node:http";
import type { AddressInfo } from "node:net";
import { join } from "node:path";
import { SqliteSaver } from "@framework/checkpoint-sqlite";
import {
  type Agent,
  ConfigurationError,
  getDefaultLogger,
  type Logger,
  withRedaction,
} from "@framework/core";
import type { Checkpointer } from "@framework/graph";
import { createAdaptorServer } from "@hono/node-server";
import { OpenAPIHono } from "@hono/zod-openapi";
import type { MeterProvider } from "@opentelemetry/api";
import type { ServableGraph } from "./assistant/served-assistant.js";
import { requestUser } from "./auth/request-user.js";
import { localUser, type ServerAuth } from "./auth/server-auth.js";
import { CronRunner } from "./cron/cron-runner.js";
import { TimerCronScheduler } from "./cron/cron-scheduler.js";
import { InsecureServerError } from "./error/insecure-server-error.js";
import { RequestValidationError } from "./error/request-validation-error.js";
import { RunQuotaExceededError } from "./error/run-quota-exceeded-error.js";
import { bodySizeLimit } from "./http/body-size-limit.js";
import { errorAnswer } from "./http/error-response.js";
import { assistantRoutes } from "./http/routes/assistant-routes.js";
import { chatRoutes } from "./http/routes/chat-routes.js";
import { cronRoutes } from "./http/routes/cron-routes.js";
import { interruptRoutes } from "./http/routes/interrupt-routes.js";
import { metaRoutes } from "./http/routes/meta-routes.js";
import { runRoutes } from "./http/routes/run-routes.js";
import { studioPageRoutes } from "./http/routes/studio-page-routes.js";
import { threadRoutes } from "./http/routes/thread-routes.js";
import { traceRoutes } from "./http/routes/trace-routes.js";
import { OpenStreams } from "./http/run-event-stream.js";
import type { ServerContext, ServerEnv } from "./http/server-context.js";
import type { RunQuotaOptions } from "./quota/run-quotas.js";
import type { ServerQueue } from "./run/run-dispatcher.js";
import { createServerRuns } from "./run/server-runs.js";
import type { ServerStore } from "./store/server-store.js";
import { SqliteServerStore } from "./store/sqlite-server-store.js";
import { type StudioOptions, startStudio } from "./studio/server-studio.js";
import type { WebhookOptions } from "./webhook/webhook-options.js";

/** Where the server keeps threads when given no `checkpointer` or `store`. */
export const DEFAULT_DATABASE_PATH = join(".framework", "server.sqlite");
/** The largest request body accepted by default: 1 MiB. */
export const DEFAULT_BODY_LIMIT_BYTES = 1024 * 1024;
/** How long a stream may go without bytes before a keep-alive comment, by default. */
export const DEFAULT_KEEP_ALIVE_MS = 15_000;
/** How long a finished run's events stay rejoinable, by default: one hour. */
export const DEFAULT_EVENT_RETENTION_MS = 60 * 60 * 1000;
/** How long `close()` lets running nodes end before stopping them, by default. */
export const DEFAULT_SHUTDOWN_GRACE_MS = 10_000;
/** How often an instance over a shared store looks for runs of dead instances, by default. */
export const DEFAULT_RECOVERY_INTERVAL_MS = 10_000;

/** How long an instance goes without looking for crons changed by other instances, by default. */
export const DEFAULT_CRON_POLL_INTERVAL_MS = 10_000;

/** Options of {@link createServer}. */
export interface ServerOptions {
  /** Agents to serve, by name: each is an assistant whose threads are conversations. */
  agents?: Readonly<Record<string, Agent>>;
  /** Compiled graphs or crews to serve, by name. */
  graphs?: Readonly<Record<string, ServableGraph>>;
  /**
   * Where every served graph's checkpoints go (each graph is served bound to it). Default: a
   * `SqliteSaver` on {@link ServerOptions.databasePath}.
   */
  checkpointer?: Checkpointer;
  /**
   * Where threads, runs and run events go. Default: SQLite on `databasePath`. Several server
   * instances share one `PostgresServerStore` (`@framework/server-postgres`): any of them
   * answers any request.
   */
  store?: ServerStore;
  /**
   * Runs execute on a pool of workers instead of in this process: this instance creates them
   * in the queue's shared store and wakes a worker (`@framework/server-queue`'s
   * `serverQueue({ redis, postgres })`, with `createServerWorker` for the workers). Replaces
   * `store` and `checkpointer`; the server closes the queue when it closes.
   */
  queue?: ServerQueue;
  /** The SQLite file of the defaults above. Default {@link DEFAULT_DATABASE_PATH}. */
  databasePath?: string;
  /**
   * Who a request is from. Without it every request acts for one local user, and `listen`
   * binds loopback only unless `insecure` is set.
   */
  auth?: ServerAuth;
  /** Lets a server without `auth` listen on a non-loopback address. */
  insecure?: boolean;
  /** Default {@link DEFAULT_BODY_LIMIT_BYTES}. */
  bodyLimitBytes?: number;
  /** Default {@link DEFAULT_KEEP_ALIVE_MS}. */
  keepAliveMs?: number;
  /** Default {@link DEFAULT_EVENT_RETENTION_MS}. */
  eventRetentionMs?: number;
  /** Default {@link DEFAULT_SHUTDOWN_GRACE_MS}. */
  shutdownGraceMs?: number;
  /**
   * With a store shared by several instances: how often this one looks for the unfinished
   * runs of instances that died (their thread leases went with them) and continues them from
   * their last checkpoint. Default {@link DEFAULT_RECOVERY_INTERVAL_MS}.
   */
  recoveryIntervalMs?: number;
  /**
   * The longest this instance sleeps between looks at the store's crons: how soon it fires
   * crons another instance created or changed (its own changes it sees at once). Default
   * {@link DEFAULT_CRON_POLL_INTERVAL_MS}. Unused with a `queue` that fires crons itself.
   */
  cronPollIntervalMs?: number;
  /** Receives the server's log lines, secrets redacted. Default: the framework's logger. */
  logger?: Logger;
  /**
   * Serves the studio at `/studio`: a page to watch runs, travel threads' checkpoints, answer
   * approvals and read traces, from this server only. It also keeps the spans of recent runs
   * in memory (see the README's "Studio" for how it meets an OpenTelemetry setup of the app's).
   * Default `false`.
   */
  studio?: boolean | StudioOptions;
  /**
   * How the webhooks runs ask for (their `webhook` URL) are sent: signing secret, private
   * networks, attempts. Without it they are sent unsigned, to public addresses only, with the
   * default retries.
   */
  webhooks?: WebhookOptions;
  /** Per-user limits on active and pending runs (429 with `Retry-After` beyond). Default none. */
  quotas?: RunQuotaOptions;
  /**
   * Where the server's metrics go (see the README's "Metrics"). Default: the global
   * `MeterProvider` of `@opentelemetry/api`, a no-op until the app registers an SDK's.
   */
  meterProvider?: MeterProvider;
}

/** Options of {@link FrameworkServer.listen}. */
export interface ListenOptions {
  /** Default 8123; 0 picks a free port. */
  port?: number;
  /** Default `127.0.0.1`. */
  host?: string;
}

/** A running server's address. */
export interface ServerAddress {
  readonly host: string;
  readonly port: number;
  /** `http://host:port`. */
  readonly url: string;
  /** `http://host:port/studio/` when the studio is on. */
  readonly studioURL?: string;
}

/** What {@link createServer} returns. */
export interface FrameworkServer {
  /** The Hono app: mount it, or add routes and middleware of your own. */
  readonly app: OpenAPIHono<ServerEnv>;
  /** Answers a Web-standard request: the same app on any runtime. */
  fetch(request: Request): Promise<Response>;
  /** Settles when runs a previous server left unfinished have been picked up. */
  readonly ready: Promise<void>;
  /**
   * Serves over HTTP on Node.
   *
   * @throws InsecureServerError when there is no `auth`, the host is not loopback and
   *   `insecure` is not set.
   */
  listen(options?: ListenOptions): Promise<ServerAddress>;
  /**
   * Shuts down: stops accepting requests, drains executing runs (no node starts; the running
   * ones may end and be checkpointed for `shutdownGraceMs`, then the rest are stopped; every
   * such run continues from its last checkpoint when a server starts again), ends open
   * streams with a `retry:` hint, and closes what the server opened.
   */
  close(): Promise<void>;
}

const loopbackHosts = new Set(["127.0.0.1", "::1", "localhost"]);

/**
 * Serves agents, graphs and crews over HTTP: LangGraph's Agent Protocol (so
 * `@langchain/langgraph-sdk` works unchanged), with durable, resumable run streams,
 * interrupts answered over HTTP, and threads scoped to their owner.
 *
 * @example
 * const server = createServer({ agents: { research: agent }, graphs: { advisory: crew } });
 * const { url } = await server.listen({ port: 8123 });
 */
export function createServer(options: ServerOptions = {}): FrameworkServer {
  const logger = withRedaction(options.logger ?? getDefaultLogger());
  const { queue } = options;
  if (queue && (options.store || options.checkpointer)) {
    throw new ConfigurationError({
      setting: "queue",
      message: "A server with a queue uses the queue's store and checkpointer: pass neither",
    });
  }
  const databasePath = options.databasePath ?? DEFAULT_DATABASE_PATH;
  const given = queue ?? options;
  const ownCheckpointer = given.checkpointer
    ? undefined
    : new SqliteSaver({ path: databasePath, durability: "normal" });
  const checkpointer = given.checkpointer ?? ownCheckpointer!;
  const ownStore = given.store ? undefined : new SqliteServerStore({ path: databasePath });
  const store: ServerStore = given.store ?? ownStore!;
  const { assistants, log, reporting, runs } = createServerRuns({
    agents: options.agents,
    graphs: options.graphs,
    store,
    checkpointer,
    logger,
    webhooks: options.webhooks,
    webhookDelivery: queue?.webhookDelivery,
    meterProvider: options.meterProvider,
    dispatcher: queue,
    quotas: options.quotas,
  });
  const { webhooks } = reporting;
  const runner = new CronRunner({ store, runs, logger });
  const crons =
    queue?.cronScheduler?.(runner, logger) ??
    new TimerCronScheduler({
      store,
      runner,
      logger,
      pollIntervalMs: options.cronPollIntervalMs ?? DEFAULT_CRON_POLL_INTERVAL_MS,
    });
  const bodyLimitBytes = options.bodyLimitBytes ?? DEFAULT_BODY_LIMIT_BYTES;
  const studio = options.studio ? startStudio(options.studio, runs, logger) : undefined;
  const context: ServerContext = {
    store,
    log,
    runs,
    assistants,
    streams: new OpenStreams(),
    logger,
    startedAt: new Date().toISOString(),
    keepAliveMs: options.keepAliveMs ?? DEFAULT_KEEP_ALIVE_MS,
    bodyLimitBytes,
  };

  const app = new OpenAPIHono<ServerEnv>({
    defaultHook: (result) => {
      if (!result.success) {
        throw new RequestValidationError({
          issues: result.error.issues.map((issue) => ({
            path: [
              result.target,
              ...issue.path.map((part) => (typeof part === "symbol" ? String(part) : part)),
            ],
            message: issue.message,
          })),
        });
      }
    },
  });
  app.onError((error, c) => {
    const { status, body } = errorAnswer(error, logger, bodyLimitBytes);
    // RFC 9110: a 401 names the scheme to authenticate with; both built-in auths take Bearer.
    if (status === 401) c.header("WWW-Authenticate", "Bearer");
    if (RunQuotaExceededError.isInstance(error)) {
      c.header("Retry-After", String(error.retryAfterSeconds));
    }
    return c.json(body, status as 400);
  });
  app.notFound((c) =>
    c.json(
      {
        error: {
          type: "RouteNotFoundError",
          message: `No route for ${c.req.method} ${c.req.path}`,
        },
      },
      404,
    ),
  );
  app.use(bodySizeLimit(bodyLimitBytes));

  metaRoutes(app, context);
  if (studio) studioPageRoutes(app, studio.assets);
  app.use(async (c, next) => {
    c.set("user", await requestUser(options.auth, c.req.raw));
    await next();
  });
  assistantRoutes(app, context);
  threadRoutes(app, context);
  runRoutes(app, context);
  chatRoutes(app, context);
  cronRoutes(app, context, crons, webhooks);
  interruptRoutes(app, context);
  if (studio) traceRoutes(app, context, studio);

  const retentionMs = options.eventRetentionMs ?? DEFAULT_EVENT_RETENTION_MS;
  const trim = setInterval(
    () => {
      runs
        .trim(retentionMs)
        .catch((error: unknown) => logger.warn(`Trimming old runs failed: ${String(error)}`));
    },
    Math.min(retentionMs, 10 * 60 * 1000),
  );
  trim.unref();

  const ready = runs.start();
  ready.catch((error: unknown) =>
    logger.error(`Resuming unfinished runs failed: ${String(error)}`),
  );
  // Ticks create runs, so they start once the runs a previous server left are picked up.
  void ready.then(
    () => crons.start(),
    () => crons.start(),
  );
  // With a queue, the workers look for runs of dead processes.
  const sweep =
    store.leaseThread && !queue
      ? setInterval(() => {
          runs
            .recover()
            .catch((error: unknown) =>
              logger.warn(`Looking for runs of stopped instances failed: ${String(error)}`),
            );
        }, options.recoveryIntervalMs ?? DEFAULT_RECOVERY_INTERVAL_MS)
      : undefined;
  sweep?.unref();
  let http: Server | undefined;
  let closing: Promise<void> | undefined;

  return {
    app,
    ready,
    fetch: async (request) => app.fetch(request),
    async listen({ port = 8123, host = "127.0.0.1" } = {}) {
      if (!options.auth && !loopbackHosts.has(host) && !options.insecure) {
        throw new InsecureServerError({ host });
      }
      const server = createAdaptorServer({ fetch: app.fetch }) as Server;
      http = server;
      await new Promise<void>((resolve, reject) => {
        server.once("error", reject);
        server.listen(port, host, () => {
          server.off("error", reject);
          resolve();
        });
      });
      const address = server.address() as AddressInfo;
      const shownHost = address.family === "IPv6" ? `[${address.address}]` : address.address;
      const url = `http://${shownHost}:${address.port}`;
      if (!options.auth) {
        logger.warn(
          `No auth configured: serving ${url} to this machine only; every request acts as ${localUser.id}`,
        );
      }
      if (!studio) return { host: address.address, port: address.port, url };
      const studioURL = `${url}/studio/`;
      logger.info(`Studio: ${studioURL}`);
      return { host: address.address, port: address.port, url, studioURL };
    },
    close() {
      closing ??= (async () => {
        clearInterval(trim);
        clearInterval(sweep);
        await crons.close();
        const stopped = http ? new Promise((resolve) => http!.close(resolve)) : Promise.resolve();
        await runs.close(options.shutdownGraceMs ?? DEFAULT_SHUTDOWN_GRACE_MS);
        await log.flush().catch(() => {});
        await reporting.close();
        context.streams.closeAll(1_000);
        http?.closeIdleConnections();
        setTimeout(() => http?.closeAllConnections(), 1_000).unref();
        await stopped;
        studio?.close();
        await queue?.close();
        await ownStore?.close();
        ownCheckpointer?.close();
      })();
      return closing;
    },
  };
}
