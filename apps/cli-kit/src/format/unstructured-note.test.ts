import { describe, expect, it } from "vitest";
import { unstructuredNote } from "./unstructured-note.js";

describe("unstructuredNote", () => {
  it("names what was asked for and why the answer did not fit", () => {
    expect(
      unstructuredNote("recommendation", [
        { path: "allocation", message: "Required." },
        { path: "risks", message: "Expected array" },
      ]),
    ).toBe(
      "Unstructured recommendation: the model's answer did not match the structure asked for (allocation: Required; risks: Expected array), so it is shown as the model wrote it.",
    );
  });

  it("leaves out the path of an issue with the answer as a whole", () => {
    expect(
      unstructuredNote("report", [{ path: "(output)", message: "The answer is not valid JSON." }]),
    ).toContain("(The answer is not valid JSON)");
  });
});
