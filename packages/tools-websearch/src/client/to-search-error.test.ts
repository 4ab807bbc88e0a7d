import { registerSecret } from "@framework/core";
import { describe, expect, it } from "vitest";
import { SearchError } from "../error/search-error.js";
import { toSearchError } from "./to-search-error.js";

const context = { timeoutMs: 5000, baseURL: "https://api.tavily.com" };
const classify = (message: string) => toSearchError(new Error(message), context);

describe("toSearchError", () => {
  it.each([
    ["Unauthorized: missing or invalid API key.", "unauthorized", 401, false],
    [
      "Your request has been blocked due to excessive requests. Please reduce rate of requests.",
      "rate_limited",
      429,
      true,
    ],
    [
      "This request exceeds your plan's set usage limit. Please upgrade your plan or contact support@tavily.com",
      "quota_exceeded",
      432,
      false,
    ],
    [
      "This request exceeds the pay-as-you-go limit. You can increase your limit on the Tavily dashboard",
      "quota_exceeded",
      433,
      false,
    ],
    ["Forbidden: this key cannot use this endpoint.", "bad_request", 403, false],
    ["Internal Server Error", "server_error", 500, true],
  ] as const)(
    "recognises Tavily's documented text %j",
    (message, reason, statusCode, retryable) => {
      const error = classify(message);
      expect(error).toMatchObject({ reason, statusCode, retryable });
      expect(error.message).toContain(message);
      expect(error.message).toContain(`(HTTP ${statusCode})`);
    },
  );

  it.each([
    ['500 Error: "Internal Server Error"', "server_error", 500, true],
    ["503 Error: {}", "server_error", 503, true],
    ["429 Error: null", "rate_limited", 429, true],
    ["401 Error: null", "unauthorized", 401, false],
    ['422 Error: {"detail":[]}', "bad_request", 422, false],
  ] as const)("reads the status of %j", (message, reason, statusCode, retryable) => {
    expect(classify(message)).toMatchObject({ reason, statusCode, retryable });
  });

  it("reports a timeout with the time limit in milliseconds", () => {
    const error = classify("Request timed out after 5 seconds.");
    expect(error).toMatchObject({ reason: "timeout", retryable: true });
    expect(error.statusCode).toBeUndefined();
    expect(error.message).toBe("Tavily search timed out after 5000 ms");
  });

  it("reports a network failure with the address it tried", () => {
    const error = classify(
      "An unexpected error occurred while making the request. Error: Error: connect ECONNREFUSED 127.0.0.1:9",
    );
    expect(error).toMatchObject({ reason: "network", retryable: true });
    expect(error.statusCode).toBeUndefined();
    expect(error.message).toBe(
      "Could not reach Tavily at https://api.tavily.com: connect ECONNREFUSED 127.0.0.1:9",
    );
  });

  it("reports an unreadable answer as invalid, not retryable", () => {
    const error = classify(
      "An unexpected error occurred while making the request. Error: TypeError: Cannot read properties of undefined (reading 'map')",
    );
    expect(error).toMatchObject({ reason: "invalid_response", retryable: false });
  });

  it("keeps an unknown API message as an api_error", () => {
    const error = classify("Something odd happened.");
    expect(error).toMatchObject({ reason: "api_error", retryable: false });
    expect(error.statusCode).toBeUndefined();
    expect(error.message).toBe("Tavily search failed: Something odd happened.");
  });

  it("accepts values that are not errors", () => {
    expect(toSearchError("boom", context).message).toBe("Tavily search failed: boom");
  });

  it("keeps a copy of the original error as the cause and is recognisable across copies", () => {
    const original = new TypeError("Internal Server Error");
    const error = toSearchError(original, context);
    expect(error.cause).toBeInstanceOf(Error);
    expect(error.cause).toMatchObject({ name: "TypeError", message: "Internal Server Error" });
    expect(SearchError.isInstance(error)).toBe(true);
    expect(SearchError.isInstance(original)).toBe(false);
  });

  it("redacts a key Tavily echoed from the message and from the cause", () => {
    const key = ["tvly", "echoed", "key", "0a1b2c3d4e"].join("-");
    registerSecret(key);
    const original = new Error(`401 Error: Unauthorized: invalid API key ${key}`);
    const error = toSearchError(original, context);
    expect(error.message).toBe(
      "Tavily rejected the API key (HTTP 401): Unauthorized: invalid API key [REDACTED]",
    );
    expect((error.cause as Error).message).not.toContain(key);
    expect((error.cause as Error).stack).not.toContain(key);
  });
});
