import type { Logger } from "@framework/core";
import type {
  BatchObservableCallback,
  Counter,
  Histogram,
  Meter,
  MeterProvider,
  ObservableGauge,
} from "@opentelemetry/api";
import type { RunQuotaLimit } from "../error/run-quota-exceeded-error.js";
import type { RunEnd } from "../run/run-end.js";
import type { RunObserver } from "../run/run-observer.js";
import type { RunRecord, ServerStore } from "../store/server-store.js";
import type { WebhookOutcome } from "../webhook/webhook-delivery.js";

/** The instrumentation scope of the server's metrics. */
export const SERVER_METER_NAME = "@framework/server";

/** Seconds, from a fast graph step to an hour-long crew run. */
const secondsBuckets = [
  0.01, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 120, 300, 600, 1800, 3600,
];

/**
 * The server's metrics, through the OpenTelemetry metrics API (a no-op until the app installs
 * an SDK): run counts read from the store, run latencies, ends, quota refusals and webhook
 * deliveries. The README's "Metrics" lists every instrument.
 */
export class ServerMetrics implements RunObserver {
  readonly #meter: Meter;
  readonly #store: ServerStore;
  readonly #logger: Logger;
  readonly #pending: ObservableGauge;
  readonly #running: ObservableGauge;
  readonly #wait: Histogram;
  readonly #duration: Histogram;
  readonly #ended: Counter;
  readonly #refused: Counter;
  readonly #webhooks: Counter;
  readonly #observeCounts: BatchObservableCallback;
  /** When the runs executing here started (ms), for their duration. */
  readonly #started = new Map<string, number>();

  constructor(meterProvider: MeterProvider, store: ServerStore, logger: Logger) {
    this.#meter = meterProvider.getMeter(SERVER_METER_NAME);
    this.#store = store;
    this.#logger = logger;
    const meter = this.#meter;
    this.#pending = meter.createObservableGauge("framework.server.run.pending", {
      description: "Runs waiting to start (the queue's depth), in the whole store",
      unit: "{run}",
    });
    this.#running = meter.createObservableGauge("framework.server.run.running", {
      description: "Runs executing, in the whole store",
      unit: "{run}",
    });
    const seconds = { unit: "s", advice: { explicitBucketBoundaries: secondsBuckets } };
    this.#wait = meter.createHistogram("framework.server.run.wait.duration", {
      description: "Time from a run's creation to its start",
      ...seconds,
    });
    this.#duration = meter.createHistogram("framework.server.run.duration", {
      description: "Time from a run's start to its end",
      ...seconds,
    });
    this.#ended = meter.createCounter("framework.server.run.ended", {
      description: "Runs ended, by status",
      unit: "{run}",
    });
    this.#refused = meter.createCounter("framework.server.run.refused", {
      description: "Run creations refused by a per-user quota, by the limit hit",
      unit: "{run}",
    });
    this.#webhooks = meter.createCounter("framework.server.webhook.deliveries", {
      description: "Webhook deliveries ended, by outcome",
      unit: "{delivery}",
    });
    this.#observeCounts = async (result) => {
      try {
        const { pending, running } = await this.#store.countRuns();
        result.observe(this.#pending, pending);
        result.observe(this.#running, running);
      } catch (error) {
        this.#logger.warn(
          `Counting runs for metrics failed: ${error instanceof Error ? error.message : String(error)}`,
        );
      }
    };
    meter.addBatchObservableCallback(this.#observeCounts, [this.#pending, this.#running]);
  }

  runStarted(run: RunRecord): void {
    const now = Date.now();
    this.#started.set(run.runId, now);
    // After a restart the wait would include the downtime, not the queue.
    if (run.attempt === 1) {
      this.#wait.record(Math.max(0, now - Date.parse(run.createdAt)) / 1000, {
        assistant_id: run.assistantId,
      });
    }
  }

  runEnded({ run }: RunEnd): void {
    const attributes = { status: run.status, assistant_id: run.assistantId };
    this.#ended.add(1, attributes);
    const started = this.#started.get(run.runId);
    this.#started.delete(run.runId);
    if (started !== undefined) this.#duration.record((Date.now() - started) / 1000, attributes);
  }

  /** A run creation was refused by a quota. */
  quotaRefused(limit: RunQuotaLimit): void {
    this.#refused.add(1, { limit });
  }

  /** A webhook's delivery ended. */
  webhookEnded(outcome: WebhookOutcome): void {
    this.#webhooks.add(1, { outcome });
  }

  /** Stops reading the store for the run counts. */
  close(): void {
    this.#meter.removeBatchObservableCallback(this.#observeCounts, [this.#pending, this.#running]);
  }
}
