import { afterAll, describe, expect, it } from "vitest";
import { createServer } from "../../create-server.js";
import { twoStepGraph } from "../../test-server.js";

describe("the API's description", () => {
  const server = createServer({ graphs: { review: twoStepGraph() }, databasePath: ":memory:" });
  afterAll(() => server.close());

  it("serves an OpenAPI 3.1 document describing every route, with schemas for bodies and answers", async () => {
    const response = await server.fetch(new Request("http://localhost/openapi.json"));
    const doc = (await response.json()) as {
      openapi: string;
      paths: Record<string, Record<string, { responses: Record<string, unknown> }>>;
      components: { schemas: Record<string, unknown> };
    };
    expect(doc.openapi).toBe("3.1.0");
    expect(Object.keys(doc.paths)).toEqual(
      expect.arrayContaining([
        "/assistants/search",
        "/threads",
        "/threads/{thread_id}/state",
        "/threads/{thread_id}/runs/stream",
        "/threads/{thread_id}/runs/{run_id}/stream",
        "/runs/wait",
      ]),
    );
    expect(Object.keys(doc.components.schemas)).toEqual(
      expect.arrayContaining(["Assistant", "Thread", "ThreadState", "Run", "RunCreate", "Error"]),
    );
    for (const operations of Object.values(doc.paths)) {
      for (const operation of Object.values(operations)) {
        expect(Object.keys(operation.responses).length).toBeGreaterThan(0);
      }
    }
  });

  it("serves a reference page that loads nothing from another origin", async () => {
    const response = await server.fetch(new Request("http://localhost/docs"));
    expect(response.status).toBe(200);
    expect(response.headers.get("content-security-policy")).toContain("default-src 'none'");
    const html = await response.text();
    expect(html).toContain('fetch("openapi.json")');
    expect(html).not.toMatch(/(src|href)="(https?:)?\/\//);
  });

  it("answers its health check without authentication", async () => {
    const guarded = createServer({ auth: () => null, databasePath: ":memory:" });
    expect((await guarded.fetch(new Request("http://localhost/ok"))).status).toBe(200);
    expect(
      (await guarded.fetch(new Request("http://localhost/threads/search", { method: "POST" })))
        .status,
    ).toBe(401);
    await guarded.close();
  });
});
