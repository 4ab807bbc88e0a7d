import { FrameworkError, registerSecret } from "@framework/core";
import { describe, expect, it } from "vitest";
import { ArxivRequestError } from "./arxiv-request-error.js";

describe("ArxivRequestError", () => {
  it("keeps its fields, redacted by FrameworkError like its message", () => {
    const secret = "arxiv-field-secret-7c41";
    registerSecret(secret);
    const error = new ArxivRequestError({
      reason: `network ${secret}` as never,
      status: 503,
      message: `failed with ${secret}`,
    });
    expect(error.reason).toBe("network [REDACTED]");
    expect(error.status).toBe(503);
    expect(error.message).toBe("failed with [REDACTED]");
    expect(ArxivRequestError.isInstance(error)).toBe(true);
    expect(FrameworkError.isInstance(error)).toBe(true);
  });

  it("has no status when arXiv did not answer", () => {
    const error = new ArxivRequestError({ reason: "timeout", message: "no answer" });
    expect(error.reason).toBe("timeout");
    expect("status" in error).toBe(false);
  });
});
