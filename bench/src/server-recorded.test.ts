import { describe, expect, it } from "vitest";
import { routeKey } from "./server-recorded.js";

describe("routeKey", () => {
  it("names a request by its method and path, whatever ids it carries", () => {
    const thread = "0b6c5c8e-2f7a-4a57-9d6e-0f3f7e2b9c11";
    const run = "9E1D3C2B-7A4F-4C8E-B1D2-3F4A5B6C7D8E";
    expect(routeKey("post", `/threads/${thread}/runs/wait`)).toBe("POST /threads/:id/runs/wait");
    expect(routeKey("GET", `/threads/${thread}/runs/${run}`)).toBe("GET /threads/:id/runs/:id");
    expect(routeKey("POST", "/threads")).toBe("POST /threads");
    expect(routeKey("POST", "/threads/not-an-id/runs/wait")).toBe(
      "POST /threads/not-an-id/runs/wait",
    );
  });
});
