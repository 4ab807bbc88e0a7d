// The program of our server's child process (item 11): `createServer` from the built
// `@framework/server` serving the two-node graph, with its default SQLite store in the
// directory given as the first argument.
import { join } from "node:path";
import { createServer } from "@framework/server";
import { serveAsChild } from "./server-child-ipc.js";
import { ourPairGraph } from "./server-our-graph.js";

const directory = process.argv[2]!;
const server = createServer({
  graphs: { pair: ourPairGraph() },
  databasePath: join(directory, "server.sqlite"),
});
await server.ready;
const { url } = await server.listen({ port: 0 });
serveAsChild(url);
