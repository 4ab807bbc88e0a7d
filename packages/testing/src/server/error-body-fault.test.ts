import { afterEach, describe, expect, it } from "vitest";
import { errorBodyFault, errorBodyShapes } from "./error-body-fault.js";
import { type FakeServer, startFakeServer } from "./fake-server.js";

let server: FakeServer | undefined;
afterEach(async () => {
  await server?.close();
});

describe("errorBodyFault", () => {
  it.each(errorBodyShapes)("answers a %s body carrying the whole message", async (shape) => {
    server = await startFakeServer(() => ({}));
    server.injectFaults(errorBodyFault(418, shape, "kettle is busy"));
    const response = await fetch(server.url);
    expect(response.status).toBe(418);
    expect(await response.text()).toContain("kettle is busy");
  });

  it.each([
    ["openai", { error: { message: "m", type: "invalid_request_error", param: null, code: null } }],
    ["message", { message: "m" }],
    ["detail", { detail: "m" }],
    ["detail-error", { detail: { error: "m" } }],
    ["detail-list", { detail: [{ loc: ["body", "messages"], msg: "m", type: "value_error" }] }],
    ["error-string", { error: "m" }],
    ["problem", { type: "about:blank", title: "m", status: 400 }],
  ] as const)("gives the %s shape as documented", async (shape, body) => {
    server = await startFakeServer(() => ({}));
    server.injectFaults(errorBodyFault(400, shape, "m"));
    expect(await (await fetch(server.url)).json()).toEqual(body);
  });
});
