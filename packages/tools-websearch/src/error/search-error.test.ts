import { FrameworkError, registerSecret } from "@framework/core";
import { describe, expect, it } from "vitest";
import { SearchError } from "./search-error.js";

describe("SearchError", () => {
  it("keeps its fields, redacted by FrameworkError like its message", () => {
    const secret = "tvly-field-secret-90ab3e";
    registerSecret(secret);
    const error = new SearchError({
      reason: `network ${secret}` as never,
      statusCode: 502,
      message: `Could not reach Tavily with ${secret}`,
    });
    expect(error.reason).toBe("network [REDACTED]");
    expect(error.statusCode).toBe(502);
    expect(error.message).toBe("Could not reach Tavily with [REDACTED]");
    expect(SearchError.isInstance(error)).toBe(true);
    expect(FrameworkError.isInstance(error)).toBe(true);
  });

  it("says which failures may pass when tried again", () => {
    expect(new SearchError({ reason: "rate_limited", message: "slow down" }).retryable).toBe(true);
    expect(new SearchError({ reason: "unauthorized", message: "no" }).retryable).toBe(false);
    expect(new SearchError({ reason: "timeout", message: "late" }).statusCode).toBeUndefined();
  });
});
