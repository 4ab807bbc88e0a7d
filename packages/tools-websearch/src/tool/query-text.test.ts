import { describe, expect, it } from "vitest";
import { queryText } from "./query-text.js";

describe("queryText", () => {
  it("passes a string through", () => {
    expect(queryText("bitcoin price today")).toBe("bitcoin price today");
  });

  it("turns a record into key: value lines in insertion order", () => {
    expect(queryText({ company: "NVIDIA", topic: "latest earnings", period: "Q3 2025" })).toBe(
      "company: NVIDIA\ntopic: latest earnings\nperiod: Q3 2025",
    );
  });

  it("turns an empty record into an empty query", () => {
    expect(queryText({})).toBe("");
  });
});
