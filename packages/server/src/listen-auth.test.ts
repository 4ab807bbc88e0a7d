import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { silentLogger } from "@framework/core";
import { createCapturingLogger } from "@framework/testing";
import { afterEach, describe, expect, it } from "vitest";
import { apiKeyAuth } from "./auth/api-key-auth.js";
import { createServer, type FrameworkServer, type ServerOptions } from "./create-server.js";
import { InsecureServerError } from "./error/insecure-server-error.js";

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

function server(options: ServerOptions = {}): FrameworkServer {
  const directory = mkdtempSync(join(tmpdir(), "framework-server-listen-"));
  const created = createServer({
    databasePath: join(directory, "server.sqlite"),
    logger: silentLogger,
    shutdownGraceMs: 0,
    ...options,
  });
  cleanups.push(async () => {
    await created.close();
    rmSync(directory, { recursive: true, force: true });
  });
  return created;
}

/** Listens on every interface, then checks the server answers (over loopback only). */
async function listensEverywhere(created: FrameworkServer): Promise<void> {
  const { host, port } = await created.listen({ host: "0.0.0.0", port: 0 });
  expect(host).toBe("0.0.0.0");
  expect((await fetch(`http://127.0.0.1:${port}/ok`)).status).toBe(200);
}

describe("where a server listens", () => {
  it("refuses to listen beyond loopback without auth, and says how to fix it", async () => {
    for (const host of ["0.0.0.0", "::", "192.0.2.10"]) {
      const error = await server()
        .listen({ host, port: 0 })
        .then(
          () => undefined,
          (failure: unknown) => failure,
        );
      expect(InsecureServerError.isInstance(error), `listening on ${host}`).toBe(true);
      expect((error as InsecureServerError).host).toBe(host);
      expect((error as Error).message).toMatch(/auth option.*insecure: true/);
    }
  });

  it("listens on loopback without auth, warning that it serves this machine only", async () => {
    const logger = createCapturingLogger();
    const { url } = await server({ logger }).listen({ port: 0 });
    expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(logger.lines.join("\n")).toContain("No auth configured");
  });

  it("listens beyond loopback without auth when insecure is set", async () => {
    await listensEverywhere(server({ insecure: true }));
  });

  it("listens beyond loopback with auth", async () => {
    await listensEverywhere(server({ auth: apiKeyAuth({ keys: { "listen-test-key": "ops" } }) }));
  });
});
