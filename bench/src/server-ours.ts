// The program of our server's child process (item 11): `createServer` from the built
// `@framework/server` serving the two-node graph, with its default SQLite store in the
// directory given as the first argument, or, when the second is `in-memory`, with the same
// store and checkpointer in memory: the server with no durable write, to show what they cost.
import { randomUUID } from "node:crypto";
import { join } from "node:path";
import { SqliteSaver } from "@framework/checkpoint-sqlite";
import { createServer } from "@framework/server";
import { serveAsChild } from "./server-child-ipc.js";
import { ourPairGraph, runInput } from "./server-our-graph.js";

const directory = process.argv[2]!;
const inMemory = process.argv[3] === "in-memory";
const server = createServer({
  graphs: { pair: ourPairGraph() },
  databasePath: inMemory ? ":memory:" : join(directory, "server.sqlite"),
});
await server.ready;
const { url } = await server.listen({ port: 0 });
// The same graph bound to a checkpointer of its own file, as the server binds its default one.
const alone = ourPairGraph().withCheckpointer(
  new SqliteSaver({ path: join(directory, "graph-alone.sqlite"), durability: "normal" }),
);
serveAsChild(url, {
  async graphAlone(runs) {
    const started = performance.now();
    for (let index = 0; index < runs; index++) {
      await alone.invoke(runInput(1), { configurable: { thread_id: randomUUID() } });
    }
    return (performance.now() - started) / runs;
  },
});
