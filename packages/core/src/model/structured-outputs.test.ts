import { afterEach, describe, expect, it, vi } from "vitest";
import { ConfigurationError } from "../error/configuration-error.js";
import { resolveStructuredOutputsMode } from "./structured-outputs.js";

afterEach(() => {
  vi.restoreAllMocks();
});

const settingOf = (call: () => unknown) => {
  try {
    call();
  } catch (error) {
    return ConfigurationError.isInstance(error) ? error.setting : "another error";
  }
  return undefined;
};

describe("resolveStructuredOutputsMode", () => {
  it("is auto when neither the option nor LLM_STRUCTURED_OUTPUTS says otherwise", () => {
    expect(resolveStructuredOutputsMode(undefined, {})).toBe("auto");
    expect(resolveStructuredOutputsMode(undefined, { LLM_STRUCTURED_OUTPUTS: "" })).toBe("auto");
  });

  it("reads LLM_STRUCTURED_OUTPUTS in any case", () => {
    expect(resolveStructuredOutputsMode(undefined, { LLM_STRUCTURED_OUTPUTS: "off" })).toBe("off");
    expect(resolveStructuredOutputsMode(undefined, { LLM_STRUCTURED_OUTPUTS: " On " })).toBe("on");
  });

  it("takes the option over the variable", () => {
    expect(resolveStructuredOutputsMode("on", { LLM_STRUCTURED_OUTPUTS: "off" })).toBe("on");
  });

  it("refuses any other value, naming the setting", () => {
    expect(
      settingOf(() => resolveStructuredOutputsMode(undefined, { LLM_STRUCTURED_OUTPUTS: "yes" })),
    ).toBe("LLM_STRUCTURED_OUTPUTS");
    expect(settingOf(() => resolveStructuredOutputsMode("always" as never, {}))).toBe(
      "structuredOutputs",
    );
  });

  it("reads true and false, the option's old values, as on and off, warning once per process", () => {
    const warn = vi.spyOn(process, "emitWarning").mockImplementation(() => undefined);
    expect(resolveStructuredOutputsMode(true, { LLM_STRUCTURED_OUTPUTS: "off" })).toBe("on");
    expect(resolveStructuredOutputsMode(false, {})).toBe("off");
    expect(warn.mock.calls).toEqual([
      [
        expect.stringContaining('takes "auto", "on" or "off"'),
        { type: "DeprecationWarning", code: "FRAMEWORK_STRUCTURED_OUTPUTS_BOOLEAN" },
      ],
    ]);
  });
});
