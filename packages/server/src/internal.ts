// Plumbing for the framework's own packages (`@framework/server-queue`): not a public API.

export { CronRunner, type CronRunnerOptions, type CronTickOutcome } from "./cron/cron-runner.js";
export { nextTick } from "./cron/cron-schedule.js";
export type { CronScheduler } from "./cron/cron-scheduler.js";
export {
  createRunExecutor,
  type RunExecutor,
  type RunExecutorOptions,
} from "./run/run-executor.js";
export type { ServerRunsOptions } from "./run/server-runs.js";
export {
  type CronRow,
  cronSortColumns,
  type EventRow,
  type RowTypes,
  type RunRow,
  storeRows,
  type ThreadRow,
  threadSortColumns,
} from "./store/store-rows.js";
export {
  retryDelayMs,
  type WebhookDelivery,
  type WebhookDeliveryFactory,
  type WebhookDeliveryOptions,
  type WebhookOutcome,
} from "./webhook/webhook-delivery.js";
export type { WebhookAttempt, WebhookMessage } from "./webhook/webhook-sender.js";
export { loggableUrl } from "./webhook/webhook-url.js";
