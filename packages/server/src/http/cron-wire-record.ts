import type { CronRecord } from "../store/server-store.js";

/** A cron as the protocol shows it (the SDK's `Cron`). */
export function wireCron(cron: CronRecord) {
  return {
    cron_id: cron.cronId,
    assistant_id: cron.assistantId,
    thread_id: cron.threadId,
    ...(cron.threadId === null ? { on_run_completed: cron.onRunCompleted } : {}),
    end_time: cron.endTime,
    schedule: cron.schedule,
    timezone: cron.timezone,
    created_at: cron.createdAt,
    updated_at: cron.updatedAt,
    payload: {
      assistant_id: cron.assistantId,
      input: cron.run.input,
      config: cron.run.config,
      multitask_strategy: cron.run.multitaskStrategy,
      stream_mode: [...cron.run.streamMode],
      webhook: cron.run.webhook,
    },
    user_id: cron.owner,
    next_run_date: cron.nextRunDate,
    metadata: cron.metadata,
    enabled: cron.enabled,
  };
}
