// A load balancer for the server-queue bench: a TCP proxy on 127.0.0.1 handing each new
// connection to the next backend that accepts it, so a client that reconnects after its
// instance died reaches a live one at the same address, as it would behind a real balancer.
import { connect, createServer, type Server, type Socket } from "node:net";

/** A connection the balancer handed to a backend. */
export interface HandedConnection {
  readonly at: number;
  readonly backend: string;
  lastDataAt: number;
}

/** A running balancer. */
export interface TcpBalancer {
  /** `http://127.0.0.1:<port>`. */
  readonly url: string;
  /**
   * Each connection handed to a backend: when (`performance.now()`), to which, and when that
   * backend last sent on it.
   */
  readonly handed: readonly HandedConnection[];
  close(): Promise<void>;
}

/** Balances over `backends` (`http://host:port`), round robin, skipping those that refuse. */
export async function startTcpBalancer(backends: readonly string[]): Promise<TcpBalancer> {
  const targets = backends.map((backend) => new URL(backend));
  const handed: HandedConnection[] = [];
  const open = new Set<Socket>();
  let next = 0;
  const hand = (client: Socket, tries: number) => {
    if (tries === targets.length) {
      client.destroy();
      return;
    }
    const target = targets[next++ % targets.length]!;
    const upstream = connect(Number(target.port), target.hostname);
    let connected = false;
    open.add(upstream);
    upstream.once("error", () => {
      open.delete(upstream);
      if (connected) client.destroy();
      else hand(client, tries + 1);
    });
    upstream.once("connect", () => {
      connected = true;
      const connection: HandedConnection = {
        at: performance.now(),
        backend: target.origin,
        lastDataAt: 0,
      };
      handed.push(connection);
      upstream.on("data", () => {
        connection.lastDataAt = performance.now();
      });
      client.pipe(upstream).pipe(client);
      client.once("close", () => upstream.destroy());
      upstream.once("close", () => client.destroy());
    });
  };
  const server: Server = createServer((client) => {
    open.add(client);
    client.once("close", () => open.delete(client));
    client.on("error", () => client.destroy());
    hand(client, 0);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as { port: number };
  return {
    url: `http://127.0.0.1:${port}`,
    handed,
    close: () =>
      new Promise((resolve) => {
        for (const socket of open) socket.destroy();
        server.close(() => resolve());
      }),
  };
}
