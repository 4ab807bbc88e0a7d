// A CrewWorker process for `bench:queue`, on the built packages: a three-node crew whose nodes
// do nothing (the no-op model), or hang in `hangIn` (to be SIGKILLed there). Its one argument
// is JSON: { postgresUrl, redisUrl, schema, queueName, workerId, concurrency, lockDurationMs,
// stalledIntervalMs, hangIn? }. Prints `ready`, then `<node> <runId>` as nodes start.
import { PostgresSaver } from "@framework/checkpoint-postgres";
import { CrewWorker } from "@framework/crew-queue";
import { appendReducer, defineState, END, FlowStateGraph, reducer, START } from "@framework/graph";
import { z } from "zod";

const config = JSON.parse(process.argv[2]!) as {
  postgresUrl: string;
  redisUrl: string;
  schema: string;
  queueName: string;
  workerId: string;
  concurrency: number;
  lockDurationMs: number;
  stalledIntervalMs: number;
  hangIn?: string;
};
const State = defineState({
  messages: reducer(z.array(z.unknown()), appendReducer, () => []),
  log: reducer(z.array(z.string()), appendReducer, () => []),
});
const saver = new PostgresSaver({ connectionString: config.postgresUrl, schema: config.schema });
const step =
  (name: string) =>
  async (_state: unknown, context: { config: { configurable?: { run_id?: string } } }) => {
    if (name === config.hangIn) {
      process.stdout.write(`${name} ${String(context.config.configurable?.run_id)}\n`);
      await new Promise(() => undefined);
    }
    return { log: name };
  };
const worker = new CrewWorker({
  connection: { url: config.redisUrl },
  checkpointer: saver,
  queueName: config.queueName,
  workerId: config.workerId,
  concurrency: config.concurrency,
  lockDurationMs: config.lockDurationMs,
  stalledIntervalMs: config.stalledIntervalMs,
  sweepIntervalMs: 0,
  crews: {
    noop: ({ checkpointer }) =>
      new FlowStateGraph(State)
        .addNode("a", step("a"))
        .addNode("b", step("b"))
        .addNode("c", step("c"))
        .addFlow([START.to("a").to("b").to("c").to(END)])
        .compile({ checkpointer }) as never,
  },
});
await worker.start();
process.stdout.write("ready\n");
process.on("SIGTERM", () => void worker.close().then(() => saver.close()));
