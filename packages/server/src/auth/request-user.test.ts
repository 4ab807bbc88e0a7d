import { AuthenticationError } from "@framework/core";
import { createCapturingLogger } from "@framework/testing";
import { afterEach, describe, expect, it } from "vitest";
import { UnauthenticatedError } from "../error/unauthenticated-error.js";
import { startTestServer, type TestServer } from "../test-server.js";
import type { ServerAuth } from "./server-auth.js";
import { whoAmIGraph } from "./test-auth.js";

let running: TestServer | undefined;
afterEach(async () => {
  await running?.close();
  running = undefined;
});

const logger = createCapturingLogger();

async function answer(auth: ServerAuth, path = "/threads/search"): Promise<Response> {
  logger.clear();
  await running?.close();
  running = await startTestServer({ graphs: { who: whoAmIGraph() }, auth, logger });
  return fetch(`${running.url}${path}`, {
    method: path === "/threads/search" ? "POST" : "GET",
    headers: { "content-type": "application/json" },
    body: path === "/threads/search" ? "{}" : null,
  });
}

describe("a custom auth function", () => {
  it("answers 401 when it names no one", async () => {
    const response = await answer(() => null);
    expect(response.status).toBe(401);
    expect(await response.json()).toEqual({
      error: {
        type: "UnauthenticatedError",
        message: "Not authenticated: no credentials the server accepts",
      },
    });
  });

  it("answers 401 with the reason of an UnauthenticatedError it throws", async () => {
    const response = await answer(() => {
      throw new UnauthenticatedError({ reason: "the session was revoked" });
    });
    expect(response.status).toBe(401);
    expect(await response.json()).toEqual({
      error: {
        type: "UnauthenticatedError",
        message: "Not authenticated: the session was revoked",
      },
    });
  });

  it("answers 401 to core's AuthenticationError, saying why without core's prefix", async () => {
    const response = await answer(async () => {
      throw new AuthenticationError({
        reason: "expired",
        message: "Authentication failed: the token expired at 2030-01-01T00:00:00.000Z",
      });
    });
    expect(response.status).toBe(401);
    expect(response.headers.get("www-authenticate")).toBe("Bearer");
    expect(await response.json()).toEqual({
      error: {
        type: "UnauthenticatedError",
        message: "Not authenticated: the token expired at 2030-01-01T00:00:00.000Z",
      },
    });
  });

  it("answers 503 when core could not get the keys, logging why", async () => {
    const response = await answer(async () => {
      throw new AuthenticationError({
        reason: "key_unavailable",
        message: "Authentication failed: the JWKS at https://id.internal/jwks timed out",
      });
    });
    expect(response.status).toBe(503);
    expect(await response.text()).not.toContain("id.internal");
    expect(logger.lines.join("\n")).toContain("https://id.internal/jwks timed out");
  });

  it("answers 500 without details when it crashes, and logs them redacted", async () => {
    const response = await answer(() => {
      throw new Error("users table unreachable at postgres://auth:hunter22@db.internal/users");
    });
    expect(response.status).toBe(500);
    expect(await response.json()).toEqual({
      error: { type: "InternalServerError", message: "The server failed to handle the request" },
    });
    const logged = logger.lines.join("\n");
    expect(logged).toContain("users table unreachable");
    expect(logged).not.toContain("hunter22");
  });

  it("answers 500 when it names a user without an id, rather than letting such users share", async () => {
    const response = await answer(() => ({ id: "" }));
    expect(response.status).toBe(500);
    expect(logger.lines.join("\n")).toContain("a user without an id");
  });

  it("names the user, claims included, to routes added to the app", async () => {
    running = await startTestServer({
      auth: (request) =>
        request.headers.get("x-user") === "carol"
          ? { id: "carol", claims: { plan: "team" } }
          : null,
    });
    running.server.app.get("/me", (c) => c.json(c.var.user));
    const me = await fetch(`${running.url}/me`, { headers: { "x-user": "carol" } });
    expect(await me.json()).toEqual({ id: "carol", claims: { plan: "team" } });
    expect((await fetch(`${running.url}/me`)).status).toBe(401);
  });

  it("is not asked for the health check and the API description", async () => {
    const refuse: ServerAuth = () => null;
    expect((await answer(refuse, "/ok")).status).toBe(200);
    expect((await answer(refuse, "/openapi.json")).status).toBe(200);
  });
});
