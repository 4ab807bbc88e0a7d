import { FrameworkError, registerSecret } from "@framework/core";
import { describe, expect, it } from "vitest";
import { EmptyOutlineError } from "./empty-outline-error.js";

describe("EmptyOutlineError", () => {
  it("keeps the planner's reply, redacted by FrameworkError like its message", () => {
    const secret = "deepsearch-outline-secret-3a7e";
    registerSecret(secret);
    const error = new EmptyOutlineError({ reply: `I cannot plan with key ${secret}.` });
    expect(error.reply).toBe("I cannot plan with key [REDACTED].");
    expect(error.message).toMatch(/The model replied: I cannot plan with key \[REDACTED\]\.$/);
    expect(EmptyOutlineError.isInstance(error)).toBe(true);
    expect(FrameworkError.isInstance(error)).toBe(true);
  });

  it("shortens a long reply in its message, not in its field", () => {
    const reply = "x".repeat(400);
    const error = new EmptyOutlineError({ reply });
    expect(error.reply).toBe(reply);
    expect(error.message).toContain(`${"x".repeat(300)}…`);
  });
});
