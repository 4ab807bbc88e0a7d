import { afterEach, describe, expect, it } from "vitest";
import {
  createConsoleLogger,
  getDefaultLogger,
  setDefaultLogger,
  withRedaction,
} from "./logger.js";
import { redactSecrets, registerSecret } from "./redact.js";

const saved = { ...process.env };
afterEach(() => {
  process.env = { ...saved };
});

describe("redactSecrets", () => {
  it("hides the values of secret-looking environment variables", () => {
    process.env.LLM_API_KEY = "sk-live-abcdef123456";
    process.env.SOME_TOKEN = "tok-987654321";
    process.env.PLAIN = "visible-value";
    expect(redactSecrets("key sk-live-abcdef123456 tok-987654321 visible-value")).toBe(
      "key [REDACTED] [REDACTED] visible-value",
    );
  });

  it("hides registered values, longest first, and ignores very short ones", () => {
    registerSecret("secret-value-1");
    registerSecret("secret-value-12");
    registerSecret("abc");
    expect(redactSecrets("secret-value-12 / secret-value-1 / abc")).toBe(
      "[REDACTED] / [REDACTED] / abc",
    );
  });

  it("follows the environment and the registrations from one line to the next", () => {
    process.env.ROTATING_TOKEN = "first-token-value";
    expect(redactSecrets("using first-token-value")).toBe("using [REDACTED]");
    process.env.ROTATING_TOKEN = "second-token-value";
    process.env.ADDED_SECRET = "added-secret-value";
    expect(redactSecrets("second-token-value added-secret-value")).toBe("[REDACTED] [REDACTED]");
    delete process.env.ADDED_SECRET;
    expect(redactSecrets("added-secret-value")).toBe("added-secret-value");
    registerSecret("registered-between-lines");
    expect(redactSecrets("registered-between-lines")).toBe("[REDACTED]");
  });
});

describe("loggers", () => {
  it("redact whatever logger is injected, once", () => {
    process.env.TAVILY_API_KEY = "tvly-0123456789";
    const lines: string[] = [];
    const sink = { debug() {}, info: (m: string) => lines.push(m), warn() {}, error() {} };
    const logger = withRedaction(sink);
    expect(withRedaction(logger)).toBe(logger);
    logger.info("calling with tvly-0123456789");
    expect(lines).toEqual(["calling with [REDACTED]"]);
  });

  it("write LEVEL message lines at or above the configured level", () => {
    const lines: string[] = [];
    const logger = createConsoleLogger({ level: "warn", write: (line) => lines.push(line) });
    logger.info("hidden");
    logger.warn("shown");
    logger.error("also shown");
    expect(lines).toEqual(["WARN shown", "ERROR also shown"]);
  });

  it("follow FRAMEWORK_LOG_LEVEL when no level is given", () => {
    const lines: string[] = [];
    const logger = createConsoleLogger({ write: (line) => lines.push(line) });
    process.env.FRAMEWORK_LOG_LEVEL = "debug";
    logger.debug("now visible");
    process.env.FRAMEWORK_LOG_LEVEL = "silent";
    logger.error("gone");
    expect(lines).toEqual(["DEBUG now visible"]);
  });

  it("replace the process-wide default and give the previous one back", () => {
    const lines: string[] = [];
    const previous = setDefaultLogger({
      debug() {},
      info: (m) => lines.push(m),
      warn() {},
      error() {},
    });
    getDefaultLogger().info("through the new default");
    setDefaultLogger(previous);
    expect(lines).toEqual(["through the new default"]);
  });
});

describe("pinned and evictable secrets", () => {
  it("keeps redacting an explicit secret however many discovered ones follow", () => {
    registerSecret("explicit-api-key-000");
    for (let i = 0; i < 5_000; i++) registerSecret(`discovered-token-${i}`, { evictable: true });
    expect(redactSecrets("key explicit-api-key-000")).toBe("key [REDACTED]");
    expect(redactSecrets("discovered-token-4999")).toBe("[REDACTED]");
    expect(redactSecrets("discovered-token-0")).toBe("discovered-token-0");
  });
});

describe("credentials in URLs", () => {
  it("hides userinfo and credential query parameters wherever a URL is printed", () => {
    expect(redactSecrets("GET https://user:hunter2@api.example.com/v1 failed")).toBe(
      "GET https://[REDACTED]@api.example.com/v1 failed",
    );
    expect(
      redactSecrets(
        "http://127.0.0.1:9/q?symbol=AAPL&key=k1&api_key=k2&apikey=k3&token=k4&access_token=k5&API-KEY=k6#x",
      ),
    ).toBe(
      "http://127.0.0.1:9/q?symbol=AAPL&key=[REDACTED]&api_key=[REDACTED]&apikey=[REDACTED]&token=[REDACTED]&access_token=[REDACTED]&API-KEY=[REDACTED]#x",
    );
    expect(redactSecrets("see https://example.com/a?monkey=1&keys=2")).toBe(
      "see https://example.com/a?monkey=1&keys=2",
    );
  });
});

describe("echoed credentials", () => {
  it("hides an Authorization header or a bearer token, whatever its value", () => {
    expect(redactSecrets("sent Authorization: Bearer abc.def-ghi, got 401")).toBe(
      "sent Authorization: [REDACTED], got 401",
    );
    expect(redactSecrets('header "authorization: Apikey k-123"')).toBe(
      'header "authorization: [REDACTED]"',
    );
    expect(redactSecrets("token Bearer xyz789 refused")).toBe("token Bearer [REDACTED] refused");
    expect(redactSecrets("the bearer of bad news")).toBe("the bearer of bad news");
  });
});
