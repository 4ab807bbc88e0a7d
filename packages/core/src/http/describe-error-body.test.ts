import { describe, expect, it } from "vitest";
import { registerSecret } from "../log/redact.js";
import { describeErrorBody, describeHttpFailure } from "./describe-error-body.js";

describe("describeErrorBody", () => {
  it.each([
    ['{"error":{"message":"Model not found","type":"invalid_request_error"}}', "Model not found"],
    [
      '{"error":"model \\"x\\" not found, try pulling it first"}',
      'model "x" not found, try pulling it first',
    ],
    ['{"message":"Forbidden"}', "Forbidden"],
    [
      '{"timestamp":"2024-01-01T00:00:00Z","status":400,"error":"Bad Request","message":"symbol is required","path":"/x"}',
      "symbol is required",
    ],
    ['{"detail":"Not authenticated"}', "Not authenticated"],
    [
      '{"detail":{"error":"Unauthorized: missing or invalid API key."}}',
      "Unauthorized: missing or invalid API key.",
    ],
    [
      '{"detail":[{"loc":["body","messages"],"msg":"Field required","type":"missing"},{"loc":["body","model"],"msg":"Field required","type":"missing"}]}',
      "body.messages: Field required; body.model: Field required",
    ],
    [
      '{"error":"invalid_client","error_description":"Client authentication failed"}',
      "invalid_client: Client authentication failed",
    ],
    ['{"type":"about:blank","title":"Service Unavailable","status":503}', "Service Unavailable"],
    ['{"errors":[{"message":"quota exceeded"}]}', "quota exceeded"],
    [
      '[{"error":{"code":429,"message":"Resource exhausted","status":"RESOURCE_EXHAUSTED"}}]',
      "Resource exhausted",
    ],
    [
      '{"Data":{},"Err":{"type":1,"message":"You need a valid auth key","other_info":{}}}',
      "You need a valid auth key",
    ],
    [
      '{"chart":{"result":null,"error":{"code":"Not Found","description":"No data found"}}}',
      "No data found",
    ],
    ['"quoted text"', "quoted text"],
    ["Too Many Requests", "Too Many Requests"],
    [
      "<html><head><title>502 Bad Gateway</title></head><body><h1>502 Bad Gateway</h1></body></html>",
      "502 Bad Gateway",
    ],
    ["<html><body><p>upstream\n  failed</p></body></html>", "upstream failed"],
    ['{"status":"fail","code":7}', '{"status":"fail","code":7}'],
  ])("reads %s", (body, expected) => {
    expect(describeErrorBody(body)).toBe(expected);
  });

  it("accepts a parsed body", () => {
    expect(describeErrorBody({ error: { message: "parsed" } })).toBe("parsed");
    expect(describeErrorBody({ code: 1 })).toBe('{"code":1}');
  });

  it("says nothing for an empty body", () => {
    expect(describeErrorBody("")).toBeUndefined();
    expect(describeErrorBody("  \n")).toBeUndefined();
    expect(describeErrorBody(undefined)).toBeUndefined();
    expect(describeErrorBody(null)).toBeUndefined();
  });

  it("redacts secrets, collapses whitespace and truncates", () => {
    registerSecret("sk-echoed-secret-42");
    expect(describeErrorBody('{"message":"bad key sk-echoed-secret-42\\n\\n  here"}')).toBe(
      "bad key [REDACTED] here",
    );
    expect(describeErrorBody("x".repeat(400))).toBe(`${"x".repeat(300)}...`);
    expect(describeErrorBody("abcdef", { maxLength: 3 })).toBe("abc...");
  });
});

describe("describeHttpFailure", () => {
  it("names the status and what the body says", () => {
    expect(
      describeHttpFailure({ status: 503, statusText: "Service Unavailable" }, '{"detail":"down"}'),
    ).toBe("HTTP 503 Service Unavailable: down");
    expect(describeHttpFailure({ status: 500, statusText: "" }, "")).toBe("HTTP 500");
    expect(
      describeHttpFailure({ status: 429, statusText: "Too Many Requests" }, "Too Many Requests"),
    ).toBe("HTTP 429 Too Many Requests");
  });
});
