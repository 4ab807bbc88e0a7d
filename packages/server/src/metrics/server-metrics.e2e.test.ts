import { createServer as createHttpServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { Client } from "@langchain/langgraph-sdk";
import {
  AggregationTemporality,
  type DataPoint,
  type Histogram,
  InMemoryMetricExporter,
  MeterProvider,
  PeriodicExportingMetricReader,
} from "@opentelemetry/sdk-metrics";
import { afterEach, describe, expect, it } from "vitest";
import { startTestServer, type TestServer, twoStepGraph } from "../test-server.js";

const hello = { messages: [{ role: "user", content: "hello" }] };

let running: TestServer | undefined;
let receiver: Server | undefined;
afterEach(async () => {
  await running?.close();
  await new Promise((resolve) => (receiver ? receiver.close(resolve) : resolve(undefined)));
  running = undefined;
  receiver = undefined;
});

interface Instrument {
  readonly unit: string;
  readonly points: DataPoint<unknown>[];
}

/** Every instrument the server reported, by name, as a reader collects them now. */
async function collect(
  reader: PeriodicExportingMetricReader,
  exporter: InMemoryMetricExporter,
): Promise<Map<string, Instrument>> {
  exporter.reset();
  await reader.forceFlush();
  const instruments = new Map<string, Instrument>();
  for (const resource of exporter.getMetrics()) {
    for (const scope of resource.scopeMetrics) {
      expect(scope.scope.name).toBe("@framework/server");
      for (const metric of scope.metrics) {
        instruments.set(metric.descriptor.name, {
          unit: metric.descriptor.unit,
          points: metric.dataPoints as DataPoint<unknown>[],
        });
      }
    }
  }
  return instruments;
}

function valueAt(instrument: Instrument | undefined, attributes: Record<string, string>) {
  return instrument?.points.find((point) =>
    Object.entries(attributes).every(([key, value]) => point.attributes[key] === value),
  )?.value;
}

describe("server metrics", () => {
  it("reports queue depth, running runs, latencies, ends, quota refusals and webhook deliveries", async () => {
    const exporter = new InMemoryMetricExporter(AggregationTemporality.CUMULATIVE);
    const reader = new PeriodicExportingMetricReader({ exporter, exportIntervalMillis: 3_600_000 });
    const meterProvider = new MeterProvider({ readers: [reader] });
    receiver = createHttpServer((request, response) => {
      request.resume();
      request.on("end", () => response.end());
    });
    await new Promise<void>((resolve) => receiver!.listen(0, "127.0.0.1", resolve));
    const webhook = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook`;
    const gates: (() => void)[] = [];
    running = await startTestServer({
      graphs: {
        review: twoStepGraph(),
        failing: twoStepGraph({ writeGate: () => Promise.reject(new Error("no draft")) }),
        held: twoStepGraph({ writeGate: () => new Promise<void>((open) => gates.push(open)) }),
      },
      meterProvider,
      webhooks: { allowPrivateNetworks: true },
      quotas: { maxPendingRunsPerUser: 2 },
    });
    const client = new Client({ apiUrl: running.url });
    const succeeded = await client.runs.create(null, "review", { input: hello, webhook });
    await client.runs.join(succeeded.thread_id, succeeded.run_id);
    await expect(client.runs.wait(null, "failing", { input: hello })).rejects.toThrow(/no draft/);
    const thread = await client.threads.create();
    const held = await client.runs.create(thread.thread_id, "held", { input: hello });
    await expect
      .poll(async () => (await client.runs.get(thread.thread_id, held.run_id)).status)
      .toBe("running");
    await client.runs.create(thread.thread_id, "held", {
      input: hello,
      multitaskStrategy: "enqueue",
    });
    await client.runs.create(thread.thread_id, "held", {
      input: hello,
      multitaskStrategy: "enqueue",
    });
    await expect(
      client.runs.create(thread.thread_id, "held", { input: hello, multitaskStrategy: "enqueue" }),
    ).rejects.toThrow(/429/);

    await expect
      .poll(async () =>
        valueAt((await collect(reader, exporter)).get("framework.server.webhook.deliveries"), {
          outcome: "delivered",
        }),
      )
      .toBe(1);
    const metrics = await collect(reader, exporter);
    const review = succeeded.assistant_id;
    expect(metrics.get("framework.server.run.pending")).toMatchObject({ unit: "{run}" });
    expect(valueAt(metrics.get("framework.server.run.pending"), {})).toBe(2);
    expect(valueAt(metrics.get("framework.server.run.running"), {})).toBe(1);
    const ended = metrics.get("framework.server.run.ended");
    expect(valueAt(ended, { status: "success", assistant_id: review })).toBe(1);
    expect(valueAt(ended, { status: "error" })).toBe(1);
    expect(ended?.points).toHaveLength(2);
    const duration = metrics.get("framework.server.run.duration");
    expect(duration?.unit).toBe("s");
    const succeededDuration = valueAt(duration, { status: "success", assistant_id: review });
    expect(succeededDuration).toMatchObject({ count: 1 });
    expect((succeededDuration as Histogram).sum).toBeGreaterThanOrEqual(0);
    const wait = metrics.get("framework.server.run.wait.duration");
    expect(wait?.unit).toBe("s");
    // The success, the failure and the held run started; the enqueued ones wait.
    const waits = wait!.points.map((point) => (point.value as Histogram).count);
    expect(waits.reduce((sum, count) => sum + count, 0)).toBe(3);
    expect(valueAt(metrics.get("framework.server.run.refused"), { limit: "pending" })).toBe(1);
    for (const open of gates.splice(0)) open();
  });
});
