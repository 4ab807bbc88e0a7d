export type { ServableGraph } from "./assistant/served-assistant.js";
export { type ApiKeyAuthOptions, type ApiKeyLookup, apiKeyAuth } from "./auth/api-key-auth.js";
export { type JwtAuthOptions, type JwtAuthUserOptions, jwtAuth } from "./auth/jwt-auth.js";
export type { ServerAuth, ServerUser } from "./auth/server-auth.js";
export {
  createServer,
  DEFAULT_BODY_LIMIT_BYTES,
  DEFAULT_CRON_POLL_INTERVAL_MS,
  DEFAULT_DATABASE_PATH,
  DEFAULT_EVENT_RETENTION_MS,
  DEFAULT_KEEP_ALIVE_MS,
  DEFAULT_RECOVERY_INTERVAL_MS,
  DEFAULT_SHUTDOWN_GRACE_MS,
  type FrameworkServer,
  type ListenOptions,
  type ServerAddress,
  type ServerOptions,
} from "./create-server.js";
export {
  AuthenticationUnavailableError,
  InsecureServerError,
  MalformedRequestError,
  NothingToResumeError,
  type RequestIssue,
  RequestTooLargeError,
  RequestValidationError,
  ResourceNotFoundError,
  RunQuotaExceededError,
  type RunQuotaLimit,
  type ServerResource,
  ServerSchemaVersionError,
  StudioNotBuiltError,
  ThreadBusyConflictError,
  ThreadIdTakenError,
  ThreadWithoutAssistantError,
  UnauthenticatedError,
  WebhookAddressRefusedError,
} from "./error/index.js";
export type { ServerEnv } from "./http/server-context.js";
export { SERVER_METER_NAME } from "./metrics/server-metrics.js";
export { DEFAULT_QUOTA_RETRY_AFTER_SECONDS, type RunQuotaOptions } from "./quota/run-quotas.js";
export type { RunDispatcher, ServerQueue } from "./run/run-dispatcher.js";
export type {
  CancelAction,
  CronFilter,
  CronPatch,
  CronRecord,
  CronRunTemplate,
  CronSearch,
  JsonObject,
  MultitaskStrategy,
  RunChangeKind,
  RunCounts,
  RunEventInput,
  RunEventRecord,
  RunFailure,
  RunInsertion,
  RunLimits,
  RunList,
  RunPatch,
  RunRecord,
  RunRequest,
  RunStart,
  RunStatus,
  RunUpdateOptions,
  RunWatcher,
  ServerStore,
  ThreadRecord,
  ThreadSearch,
  ThreadStatus,
} from "./store/server-store.js";
export { SqliteServerStore, type SqliteServerStoreOptions } from "./store/sqlite-server-store.js";
export type { StudioOptions } from "./studio/server-studio.js";
export {
  DEFAULT_STUDIO_SPANS_PER_RUN,
  DEFAULT_STUDIO_TRACED_RUNS,
  type StudioSpan,
  StudioSpanProcessor,
  type StudioSpanProcessorOptions,
  type StudioTracedRun,
} from "./studio/studio-span-processor.js";
export {
  DEFAULT_WEBHOOK_MAX_ATTEMPTS,
  DEFAULT_WEBHOOK_MAX_RETRY_DELAY_MS,
  DEFAULT_WEBHOOK_RETRY_DELAY_MS,
  DEFAULT_WEBHOOK_TIMEOUT_MS,
  type WebhookOptions,
} from "./webhook/webhook-options.js";
