import { createServer } from "node:net";
import { describe, expect, it } from "vitest";
import { freePort } from "./free-port.js";

describe("freePort", () => {
  it("answers a port a server can then listen on at 127.0.0.1", async () => {
    const port = await freePort();
    expect(port).toBeGreaterThan(0);
    const server = createServer();
    await new Promise<void>((resolve, reject) => {
      server.once("error", reject);
      server.listen(port, "127.0.0.1", resolve);
    });
    expect(server.address()).toMatchObject({ port });
    await new Promise((resolve) => server.close(resolve));
  });
});
