import { mkdtempSync, rmSync } from "node:fs";
import { createServer, type Server } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it, vi } from "vitest";
import { checkServices, configuredServiceUrls } from "./services.js";

/** A port on 127.0.0.1 that was free a moment ago and is closed now. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

describe("checkServices", () => {
  let open: Server | undefined;
  afterEach(async () => {
    await new Promise((resolve) => (open ? open.close(resolve) : resolve(undefined)));
    open = undefined;
  });

  it("passes a server that accepts a connection on", async () => {
    open = createServer((socket) => socket.destroy());
    await new Promise<void>((resolve) => open!.listen(0, "127.0.0.1", resolve));
    const { port } = open.address() as { port: number };
    const url = `redis://127.0.0.1:${port}`;
    expect(await checkServices(["redis"], { redis: url })).toEqual({ redis: { url } });
  });

  it("skips a closed port with its host and port, never the URL's password", async () => {
    const port = await closedPort();
    const url = `postgres://bench:hunter2-secret@127.0.0.1:${port}/bench`;
    const { postgres } = await checkServices(["postgres"], { postgres: url });
    expect(postgres).toEqual({
      skipped: `no Postgres server at 127.0.0.1:${port} (connection refused)`,
    });
  });

  it("skips a service that is not configured, or whose URL is not one, saying so", async () => {
    const statuses = await checkServices(["postgres", "redis"], { redis: "not a url" });
    expect(statuses.postgres).toEqual({
      skipped: expect.stringMatching(/^no Postgres server configured: FRAMEWORK_TEST_POSTGRES_URL/),
    });
    expect(statuses.redis).toEqual({ skipped: "the Redis URL is not a valid URL" });
  });

  it("checks only what it is asked about", async () => {
    expect(await checkServices([], { postgres: "postgres://127.0.0.1:1/x" })).toEqual({});
  });
});

describe("configuredServiceUrls", () => {
  afterEach(() => {
    vi.unstubAllEnvs();
    vi.restoreAllMocks();
  });

  it("finds no server instead of throwing under CI=true, so the bench can skip its rows", () => {
    const nowhere = mkdtempSync(join(tmpdir(), "bench-no-services-"));
    try {
      vi.stubEnv("CI", "true");
      vi.stubEnv("FRAMEWORK_TEST_POSTGRES_URL", "");
      vi.stubEnv("FRAMEWORK_TEST_REDIS_URL", "");
      vi.spyOn(process, "cwd").mockReturnValue(nowhere);
      expect(configuredServiceUrls()).toEqual({});
    } finally {
      rmSync(nowhere, { recursive: true, force: true });
    }
  });

  it("reads the URLs the integration tests use", () => {
    vi.stubEnv("FRAMEWORK_TEST_POSTGRES_URL", "postgres://127.0.0.1:5999/x");
    expect(configuredServiceUrls().postgres).toBe("postgres://127.0.0.1:5999/x");
  });
});
