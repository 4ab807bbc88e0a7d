// The program of LangGraph's server child process (item 11): `startServer` from
// `@langchain/langgraph-api`, as `langgraphjs dev` starts it (10 workers, its default), serving
// the graph of `graph.mjs` in the working directory given as the first argument, where it also
// keeps its `.langgraph_api` files.
import { startServer } from "@langchain/langgraph-api/server";
import { serveAsChild } from "./server-child-ipc.js";

const cwd = process.argv[2]!;
const { host } = await startServer({
  port: 0,
  host: "127.0.0.1",
  cwd,
  nWorkers: 10,
  graphs: { pair: "./graph.mjs:pair" },
});
serveAsChild(`http://${host}`);
