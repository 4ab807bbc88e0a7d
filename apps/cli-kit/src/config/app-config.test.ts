import { ConfigurationError } from "@framework/core";
import { startFakeServer } from "@framework/testing";
import { describe, expect, it } from "vitest";
import { checkModelReachable, validateAppConfig } from "./app-config.js";

function failureOf(run: () => unknown): unknown {
  try {
    run();
  } catch (error) {
    return error;
  }
  return undefined;
}

describe("validateAppConfig", () => {
  it("accepts valid settings and leaves unset ones to their defaults", () => {
    expect(() =>
      validateAppConfig({
        LLM_API_URL: "https://api.together.xyz/v1",
        LLM_API_KEY: "sk-valid",
        FRAMEWORK_LOG_LEVEL: "WARN",
        LLM_STRUCTURED_OUTPUTS: "Off",
        ARXIV_TIMEOUT_MS: "30000",
        TAVILY_API_URL: "",
        FRAMEWORK_REDIS_URL: "redis://127.0.0.1:6379",
        FRAMEWORK_POSTGRES_URL: "postgresql://crew:pw@127.0.0.1:5432/crews",
      }),
    ).not.toThrow();
  });

  it.each([
    [
      "LLM_API_URL",
      "notaurl",
      'LLM_API_URL="notaurl" is invalid: expected an http:// or https:// URL',
    ],
    [
      "FRAMEWORK_LOG_LEVEL",
      "verbose",
      'FRAMEWORK_LOG_LEVEL="verbose" is invalid: expected one of debug, info, warn, error, silent.',
    ],
    [
      "LLM_STRUCTURED_OUTPUTS",
      "yes",
      'LLM_STRUCTURED_OUTPUTS="yes" is invalid: expected one of auto, on, off.',
    ],
    [
      "YAHOO_TIMEOUT_MS",
      "soon",
      'YAHOO_TIMEOUT_MS="soon" is invalid: expected a whole number of milliseconds',
    ],
    ["VCI_TIMEOUT_MS", "-5", 'VCI_TIMEOUT_MS="-5" is invalid'],
    ["COINDESK_API_URL", "ftp://example.com", 'COINDESK_API_URL="ftp://example.com" is invalid'],
    [
      "FRAMEWORK_REDIS_URL",
      "127.0.0.1:6379",
      'FRAMEWORK_REDIS_URL="127.0.0.1:6379" is invalid: expected a redis:// or rediss:// URL',
    ],
    [
      "FRAMEWORK_POSTGRES_URL",
      "mysql://127.0.0.1/crews",
      'FRAMEWORK_POSTGRES_URL="mysql://127.0.0.1/crews" is invalid: expected a postgres:// URL',
    ],
  ])("names %s, its value %s and what is expected", (name, value, line) => {
    const error = failureOf(() => validateAppConfig({ [name]: value }));
    expect(ConfigurationError.isInstance(error)).toBe(true);
    expect(error).toMatchObject({ setting: name });
    expect((error as Error).message).toContain(line);
    expect((error as Error).message).not.toContain("\n");
  });

  it("never shows a secret's value, nor credentials inside a URL", () => {
    const key = failureOf(() => validateAppConfig({ TAVILY_API_KEY: "tvly-secret with space" }));
    expect((key as Error).message).toBe(
      "TAVILY_API_KEY=[REDACTED] is invalid: expected a key without spaces or line breaks.",
    );
    const url = failureOf(() => validateAppConfig({ LLM_API_URL: "ws://user:hunter2@host/v1" }));
    expect((url as Error).message).toContain("LLM_API_URL=");
    expect((url as Error).message).not.toContain("hunter2");
  });
});

describe("checkModelReachable", () => {
  it("fails fast, with the URL redacted and a hint, when the connection is refused", async () => {
    const closed = await startFakeServer(() => ({}));
    await closed.close();
    const url = new URL(closed.url);
    url.username = "user";
    url.password = "hunter2";
    const error = await checkModelReachable(url.href).catch((e: unknown) => e);
    expect(ConfigurationError.isInstance(error)).toBe(true);
    expect(error).toMatchObject({ setting: "LLM_API_URL" });
    const message = (error as Error).message;
    expect(message).toMatch(
      /cannot reach the model service at http:\/\/.*127\.0\.0\.1:\d+\/ \(connection refused\)/,
    );
    expect(message).toContain("--offline");
    expect(message).not.toContain("hunter2");
  });

  it("passes when something listens", async () => {
    const server = await startFakeServer(() => ({}));
    try {
      await expect(checkModelReachable(server.url)).resolves.toBeUndefined();
    } finally {
      await server.close();
    }
  });
});
