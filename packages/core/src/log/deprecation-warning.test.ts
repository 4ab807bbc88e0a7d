import { afterEach, describe, expect, it, vi } from "vitest";
import { warnDeprecated } from "./deprecation-warning.js";

afterEach(() => {
  vi.restoreAllMocks();
});

describe("warnDeprecated", () => {
  it("emits a DeprecationWarning once per code and process", () => {
    const emit = vi.spyOn(process, "emitWarning").mockImplementation(() => undefined);
    warnDeprecated("FRAMEWORK_TEST_OLD_A", "old a is deprecated");
    warnDeprecated("FRAMEWORK_TEST_OLD_A", "old a is deprecated");
    warnDeprecated("FRAMEWORK_TEST_OLD_B", "old b is deprecated");
    expect(emit.mock.calls).toEqual([
      ["old a is deprecated", { type: "DeprecationWarning", code: "FRAMEWORK_TEST_OLD_A" }],
      ["old b is deprecated", { type: "DeprecationWarning", code: "FRAMEWORK_TEST_OLD_B" }],
    ]);
  });
});
