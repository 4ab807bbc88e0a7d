import { describe, expect, it } from "vitest";
import { formatTwoDecimals } from "./format-two-decimals.js";

describe("formatTwoDecimals", () => {
  // Expected texts are Python's f"{x:.2f}" for the same doubles.
  it.each([
    [97234.5612, "97234.56"],
    [95870.4, "95870.40"],
    [1234567.891, "1234567.89"],
    [0, "0.00"],
    [12.5, "12.50"],
    [2.675, "2.67"],
    [1.005, "1.00"],
    [0.125, "0.12"],
    [0.375, "0.38"],
    [0.875, "0.88"],
    [2.625, "2.62"],
    [1234567.125, "1234567.12"],
    [-0.125, "-0.12"],
    [-512.298, "-512.30"],
    [-0.001, "-0.00"],
    [-0, "-0.00"],
  ])("formats %d as %s", (value, expected) => {
    expect(formatTwoDecimals(value)).toBe(expected);
  });
});
