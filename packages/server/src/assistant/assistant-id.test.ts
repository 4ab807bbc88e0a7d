import { describe, expect, it } from "vitest";
import { assistantIdOf, uuidV5 } from "./assistant-id.js";

describe("assistantIdOf", () => {
  it("computes RFC 9562 version-5 UUIDs (the RFC's DNS example)", () => {
    expect(uuidV5("www.example.com", "6ba7b810-9dad-11d1-80b4-00c04fd430c8")).toBe(
      "2ed6657d-e927-568b-95e1-2665a8aea6a2",
    );
  });

  it("gives each graph name its own stable id", () => {
    expect(assistantIdOf("agent")).toBe(assistantIdOf("agent"));
    expect(assistantIdOf("agent")).not.toBe(assistantIdOf("crew"));
    expect(assistantIdOf("agent")).toMatch(
      /^[0-9a-f]{8}-[0-9a-f]{4}-5[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/,
    );
  });
});
