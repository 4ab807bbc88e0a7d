import { AbortedError, ConfigurationError, ModelCallError } from "@framework/core";
import { describe, expect, it } from "vitest";
import { describeFailure, exitCodes } from "./describe-failure.js";

function modelError(statusCode: number) {
  return new ModelCallError({
    kind: "http",
    provider: "openai-compatible",
    modelId: "m",
    statusCode,
    retryable: false,
    attempts: 1,
    upstreamMessage: "Incorrect API key provided: sk-***1234.",
  });
}

describe("describeFailure", () => {
  it("tells how to configure the key, or to use --offline, when LLM_API_KEY is missing", () => {
    const failure = describeFailure(
      new ConfigurationError({ setting: "LLM_API_KEY", message: "LLM_API_KEY is not set." }),
    );
    expect(failure.exitCode).toBe(exitCodes.configuration);
    expect(failure.message).toMatch(/LLM_API_KEY.*\.env.*--offline/);
  });

  it("names a rejected key, even wrapped in a node's error", () => {
    const wrapped = new Error('Node "market" failed', { cause: modelError(401) });
    expect(describeFailure(wrapped)).toEqual({
      message: expect.stringMatching(/^the model service rejected the API key \(HTTP 401\)/),
      exitCode: exitCodes.failed,
    });
    expect(describeFailure(modelError(500)).message).toMatch(
      /^the model service failed: .*HTTP 500/,
    );
  });

  it("keeps every reason on one line", () => {
    expect(describeFailure(new Error("first\nsecond"))).toEqual({
      message: "first second",
      exitCode: exitCodes.failed,
    });
    expect(describeFailure(new AbortedError({ operation: "agent run" })).exitCode).toBe(
      exitCodes.interrupted,
    );
  });
});
