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
