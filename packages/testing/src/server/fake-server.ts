import { createServer, type IncomingHttpHeaders, type ServerResponse } from "node:http";
import type { AddressInfo, Socket } from "node:net";

/** A request the fake server received, kept for assertions. */
export interface RecordedRequest {
  method: string;
  /** Path without the query string. */
  path: string;
  /** Query parameters; a repeated name keeps its last value (see `url` for all). */
  query: Record<string, string>;
  url: URL;
  headers: IncomingHttpHeaders;
  /** The raw body text. */
  body: string;
  /** The body parsed as JSON, or `undefined` when it is not JSON. */
  json: unknown;
  /** `performance.now()` when the request arrived. */
  receivedAt: number;
}

/** What the fake answers. Everything is optional: the default is `200` with an empty body. */
export interface FakeResponse {
  status?: number;
  headers?: Record<string, string>;
  /** A string or bytes are sent as they are; anything else as JSON. */
  body?: unknown;
  /** Waits this long before answering. */
  delayMs?: number;
  /** Never answers (the client's timeout or abort must end the call). */
  hang?: boolean;
  /** Sends the headers and this much of the body, then destroys the connection. */
  cutAfterBytes?: number;
}

/**
 * Answers one request. Return a {@link FakeResponse}, or write to `res` yourself (for
 * streaming) and return `undefined`.
 */
export type FakeHandler = (
  request: RecordedRequest,
  res: ServerResponse,
) => FakeResponse | undefined | Promise<FakeResponse | undefined>;

/** A running fake server. */
export interface FakeServer {
  /** Base URL, e.g. `http://127.0.0.1:43123`. */
  readonly url: string;
  /** Every request received, in arrival order. */
  readonly requests: RecordedRequest[];
  /** Answers the next requests with these responses, one each, before the handler sees any. */
  injectFaults(...faults: FakeResponse[]): void;
  /** Delay added to every answer from now on (0 to stop). */
  setLatency(ms: number): void;
  /**
   * From now on, each request fails with `fault` with this probability (0 to stop). `random`
   * makes the choice reproducible.
   */
  setFaultRate(rate: number, fault: FakeResponse, random?: () => number): void;
  /** Stops listening and destroys open connections, including hanging ones. */
  close(): Promise<void>;
}

/** Options of {@link startFakeServer}. */
export interface StartFakeServerOptions {
  /** Delay added to every answer. */
  latencyMs?: number;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Sends a {@link FakeResponse} on `res`, honouring its delay, hang and cut-off settings. */
export async function sendFakeResponse(res: ServerResponse, response: FakeResponse): Promise<void> {
  if (response.delayMs) await sleep(response.delayMs);
  if (response.hang) return;
  const { body } = response;
  const isRaw = typeof body === "string" || body instanceof Uint8Array;
  const payload =
    body === undefined ? Buffer.alloc(0) : Buffer.from(isRaw ? body : JSON.stringify(body));
  const headers: Record<string, string> = {
    ...(isRaw || body === undefined ? {} : { "content-type": "application/json" }),
    ...response.headers,
  };
  if (response.cutAfterBytes !== undefined) {
    res.writeHead(response.status ?? 200, { ...headers, "content-length": String(payload.length) });
    res.write(payload.subarray(0, response.cutAfterBytes));
    setImmediate(() => res.destroy());
    return;
  }
  res.writeHead(response.status ?? 200, headers);
  res.end(payload);
}

/**
 * Starts an HTTP server on 127.0.0.1 with an ephemeral port. Every fake upstream in this
 * package is built on it, so they share request recording and fault injection.
 */
export async function startFakeServer(
  handler: FakeHandler,
  options: StartFakeServerOptions = {},
): Promise<FakeServer> {
  const requests: RecordedRequest[] = [];
  const faults: FakeResponse[] = [];
  const sockets = new Set<Socket>();
  let latencyMs = options.latencyMs ?? 0;
  let faultRate = 0;
  let rateFault: FakeResponse = {};
  let random: () => number = Math.random;

  const server = createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const body = Buffer.concat(chunks).toString("utf8");
    const url = new URL(req.url ?? "/", "http://127.0.0.1");
    let json: unknown;
    try {
      json = body ? JSON.parse(body) : undefined;
    } catch {
      json = undefined;
    }
    const recorded: RecordedRequest = {
      method: req.method ?? "GET",
      path: url.pathname,
      query: Object.fromEntries(url.searchParams),
      url,
      headers: req.headers,
      body,
      json,
      receivedAt: performance.now(),
    };
    requests.push(recorded);
    try {
      if (latencyMs) await sleep(latencyMs);
      const fault =
        faults.shift() ?? (faultRate > 0 && random() < faultRate ? rateFault : undefined);
      if (fault) {
        await sendFakeResponse(res, fault);
        return;
      }
      const response = await handler(recorded, res);
      if (response) await sendFakeResponse(res, response);
    } catch (error) {
      if (!res.headersSent) {
        res.writeHead(500, { "content-type": "text/plain" });
        res.end(`fake server handler failed: ${String(error)}`);
      }
    }
  });
  // Idle connections stay open until the client or close() ends them. With Node's 5 s idle
  // limit, a client whose event loop was held up (a loaded machine) could send its next
  // request on a socket the server was closing: a connection error no real service causes.
  server.keepAliveTimeout = 0;
  server.on("connection", (socket) => {
    sockets.add(socket);
    socket.on("close", () => sockets.delete(socket));
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => resolve());
  });
  const { port } = server.address() as AddressInfo;

  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    injectFaults: (...more) => {
      faults.push(...more);
    },
    setLatency: (ms) => {
      latencyMs = ms;
    },
    setFaultRate: (rate, fault, rng = Math.random) => {
      faultRate = rate;
      rateFault = fault;
      random = rng;
    },
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}
