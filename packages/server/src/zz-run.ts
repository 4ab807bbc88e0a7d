import { defineState, END, FlowStateGraph, START } from "@framework/graph";
import { Client } from "@langchain/langgraph-sdk";
import { z } from "zod";
import { startTestServer } from "./test-server.js";

function graph() {
  const g = new FlowStateGraph(defineState({ a: z.number().optional(), b: z.number().optional() }));
  g.addNode("one", async () => ({ a: 1 }));
  g.addNode("two", async () => ({ b: 2 }));
  g.addEdge(START, "one");
  g.addEdge("one", "two");
  g.addEdge("two", END);
  return g.compile();
}
const s = await startTestServer({ graphs: { g: graph() } });
const client = new Client({ apiUrl: s.url });
const thread = await client.threads.create();
for (let i = 0; i < 200; i++) await client.runs.wait(thread.thread_id, "g", { input: {} });
const n = 1000;
const t = performance.now();
const c0 = process.cpuUsage();
for (let i = 0; i < n; i++) await client.runs.wait(thread.thread_id, "g", { input: {} });
const c = process.cpuUsage(c0);
console.log(
  `ours ${((performance.now() - t) / n).toFixed(3)} ms wall, ${((c.user + c.system) / n / 1000).toFixed(3)} ms cpu`,
);
await s.close();
