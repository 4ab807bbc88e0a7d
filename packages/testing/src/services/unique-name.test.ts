import { describe, expect, it } from "vitest";
import { uniqueName } from "./unique-name.js";

describe("uniqueName", () => {
  it("is `t_<label>_` and 12 hex digits, a new one at each call", () => {
    const names = Array.from({ length: 100 }, () => uniqueName("chaos"));
    for (const name of names) expect(name).toMatch(/^t_chaos_[0-9a-f]{12}$/);
    expect(new Set(names).size).toBe(names.length);
  });
});
