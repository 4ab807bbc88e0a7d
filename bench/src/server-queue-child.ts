// A child process of the server-queue bench, on the built packages. Its one argument is JSON:
// { role: "instance" | "worker" | "floor", postgresUrl, redisUrl, schema, queueName,
// concurrency }. An instance prints `serving <url>`; a worker, and the floor's bare BullMQ
// worker (jobs that do nothing), print `ready`. SIGTERM closes it.
import { silentLogger } from "@framework/core";
import { createServer } from "@framework/server";
import { createServerWorker, serverQueue } from "@framework/server-queue";
import { Worker } from "bullmq";
import { serverQueueGraphs } from "./server-queue-graphs.js";

const config = JSON.parse(process.argv[2]!) as {
  role: "instance" | "worker" | "floor";
  postgresUrl: string;
  redisUrl: string;
  schema: string;
  queueName: string;
  concurrency: number;
};
const connection = {
  redis: config.redisUrl,
  postgres: config.postgresUrl,
  schema: config.schema,
  queueName: config.queueName,
  logger: silentLogger,
};

let close: () => Promise<unknown>;
if (config.role === "instance") {
  const server = createServer({
    graphs: serverQueueGraphs(),
    queue: serverQueue(connection),
    logger: silentLogger,
  });
  await server.ready;
  const { url } = await server.listen({ port: 0 });
  close = () => server.close();
  process.stdout.write(`serving ${url}\n`);
} else if (config.role === "worker") {
  const worker = createServerWorker({
    graphs: serverQueueGraphs(),
    queue: connection,
    concurrency: config.concurrency,
    logger: silentLogger,
  });
  await worker.ready;
  close = () => worker.close();
  process.stdout.write("ready\n");
} else {
  const worker = new Worker(config.queueName, async () => undefined, {
    connection: { url: config.redisUrl },
    concurrency: config.concurrency,
  });
  await worker.waitUntilReady();
  close = () => worker.close();
  process.stdout.write("ready\n");
}
process.once("SIGTERM", () => void close().then(() => process.exit(0)));
