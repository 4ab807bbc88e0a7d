/**
 * A server child for crash tests: serves a three-node graph (`a` → `b` → `c`) on a database
 * and port given as arguments. Every node run appends its name to a log file; `b` waits until
 * a gate file exists. Prints `listening <url>` once it serves.
 *
 *   node --import tsx test-restart-server.ts <database> <port> <node log> <gate file>
 */
import { appendFileSync, existsSync } from "node:fs";
import { setTimeout as sleep } from "node:timers/promises";
import { silentLogger } from "@framework/core";
import { defineState, END, FlowStateGraph, START } from "@framework/graph";
import { z } from "zod";
import { createServer } from "./create-server.js";

const [databasePath = "", port = "0", nodeLog = "", gate = ""] = process.argv.slice(2);

const State = defineState({ trail: z.array(z.string()).default([]) });
const graph = new FlowStateGraph(State);
for (const name of ["a", "b", "c"]) {
  graph.addNode(name, async (state) => {
    appendFileSync(nodeLog, `${name}\n`);
    if (name === "b") while (!existsSync(gate)) await sleep(10);
    return { trail: [...state.trail, name] };
  });
}
graph.addEdge(START, "a");
graph.addEdge("a", "b");
graph.addEdge("b", "c");
graph.addEdge("c", END);

const server = createServer({
  graphs: { chain: graph.compile() },
  databasePath,
  logger: silentLogger,
});
await server.ready;
const { url } = await server.listen({ port: Number(port) });
console.log(`listening ${url}`);
