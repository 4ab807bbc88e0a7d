import { describe, expect, it } from "vitest";
import { describeError } from "./describe-error.js";

describe("describeError", () => {
  it("appends the cause Node's fetch hides behind 'fetch failed'", () => {
    const cause = Object.assign(new Error("connect ECONNREFUSED 127.0.0.1:9"), {
      code: "ECONNREFUSED",
    });
    expect(describeError(new TypeError("fetch failed", { cause }))).toBe(
      "fetch failed (connect ECONNREFUSED 127.0.0.1:9)",
    );
  });

  it("uses the cause's code when it has no message, and skips a repeated reason", () => {
    const silent = Object.assign(new Error(""), { code: "ETIMEDOUT" });
    expect(describeError(new Error("fetch failed", { cause: silent }))).toBe(
      "fetch failed (ETIMEDOUT)",
    );
    expect(describeError(new Error("boom: x", { cause: new Error("x") }))).toBe("boom: x");
  });

  it("stringifies what is not an Error", () => {
    expect(describeError("plain")).toBe("plain");
  });
});
