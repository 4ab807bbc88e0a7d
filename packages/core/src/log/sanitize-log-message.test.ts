import { describe, expect, it } from "vitest";
import { createConsoleLogger, withRedaction } from "./logger.js";
import { DEFAULT_MAX_LOG_VALUE_BYTES, sanitizeLogMessage } from "./sanitize-log-message.js";

describe("sanitizeLogMessage", () => {
  it("escapes control characters, so a value cannot forge another log line", () => {
    expect(sanitizeLogMessage("AAPL\nINFO forged line\r\t\u001b[31m\u0000\u2028\u0085")).toBe(
      "AAPL\\nINFO forged line\\r\\t\\u001b[31m\\u0000\\u2028\\u0085",
    );
  });

  it("leaves ordinary text, unicode included, as it is", () => {
    expect(sanitizeLogMessage("Giá cổ phiếu – 株価 📈")).toBe("Giá cổ phiếu – 株価 📈");
  });

  it("caps a value at 2 KB and says how many bytes were left out", () => {
    expect(DEFAULT_MAX_LOG_VALUE_BYTES).toBe(2048);
    const huge = "x".repeat(50 * 1024 * 1024);
    const capped = sanitizeLogMessage(huge);
    expect(capped).toBe(`${"x".repeat(2048)}… (${50 * 1024 * 1024 - 2048} more bytes)`);
  });

  it("counts bytes, never cutting a character in half", () => {
    const capped = sanitizeLogMessage("é".repeat(2000), 5);
    expect(capped).toBe(`éé… (${4000 - 4} more bytes)`);
  });
});

describe("framework loggers", () => {
  it("write one line per record, capped, whatever the message holds", () => {
    const lines: string[] = [];
    const sink = { debug() {}, info: (m: string) => lines.push(m), warn() {}, error() {} };
    withRedaction(sink).info(`Error fetching data for AAPL\nINFO forged ${"y".repeat(10_000)}`);
    const consoleLines: string[] = [];
    createConsoleLogger({ level: "info", write: (line) => consoleLines.push(line) }).info("a\nb");
    expect(lines).toHaveLength(1);
    expect(lines[0]).not.toContain("\n");
    expect(lines[0]).toMatch(/^Error fetching data for AAPL\\nINFO forged y+… \(\d+ more bytes\)$/);
    expect(consoleLines).toEqual(["INFO a\\nb"]);
  });
});
