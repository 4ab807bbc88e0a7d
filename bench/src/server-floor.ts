// The program of item 11's floor child process: a bare Hono route on `@hono/node-server` that
// answers each request with the bytes our server answered the same request with (recorded in
// the JSON file given as the first argument), in the same pieces, and does nothing else.
import { readFileSync } from "node:fs";
import type { AddressInfo } from "node:net";
import { serve } from "@hono/node-server";
import { Hono } from "hono";
import { serveAsChild } from "./server-child-ipc.js";
import { type RecordedAnswers, routeKey } from "./server-recorded.js";

const answers = JSON.parse(readFileSync(process.argv[2]!, "utf8")) as RecordedAnswers;
const encoder = new TextEncoder();
const app = new Hono();
app.all("*", async (c) => {
  // Every server reads the request; this one reads it and nothing more.
  await c.req.arrayBuffer();
  const answer = answers[routeKey(c.req.method, c.req.path)];
  if (!answer) return c.text(`nothing recorded for ${c.req.method} ${c.req.path}`, 404);
  const pieces = answer.pieces.map((piece) => encoder.encode(piece));
  const body =
    pieces.length === 1
      ? pieces[0]!
      : new ReadableStream<Uint8Array>({
          start(controller) {
            for (const piece of pieces) controller.enqueue(piece);
            controller.close();
          },
        });
  const headers = answer.headers.map(([name, value]): [string, string] => [name, value]);
  return new Response(body, { status: answer.status, headers });
});
const server = serve({ fetch: app.fetch, port: 0, hostname: "127.0.0.1" }, (info: AddressInfo) => {
  serveAsChild(`http://127.0.0.1:${info.port}`);
});
server.on("error", (error) => {
  throw error;
});
