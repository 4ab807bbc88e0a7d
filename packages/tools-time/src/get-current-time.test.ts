import { getToolSpec, ToolArgumentsError } from "@framework/core";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { get_current_time } from "./get-current-time.js";

beforeEach(() => {
  vi.useFakeTimers();
});

afterEach(() => {
  vi.useRealTimers();
  vi.unstubAllEnvs();
});

describe("get_current_time", () => {
  it("returns the local time as YYYY-MM-DD HH:MM:SS, zero-padded", async () => {
    vi.setSystemTime(new Date(2024, 0, 5, 3, 4, 5, 678));
    expect(await get_current_time()).toBe("2024-01-05 03:04:05");
  });

  it("uses a 24-hour clock", async () => {
    vi.setSystemTime(new Date(2025, 11, 31, 23, 59, 59));
    expect(await get_current_time()).toBe("2025-12-31 23:59:59");
  });

  it.each([
    ["Asia/Tokyo", "2025-01-01 00:30:00"],
    ["America/New_York", "2024-12-31 10:30:00"],
    ["UTC", "2024-12-31 15:30:00"],
  ])("reads the clock in the process time zone (%s)", async (zone, expected) => {
    vi.stubEnv("TZ", zone);
    vi.setSystemTime(Date.UTC(2024, 11, 31, 15, 30, 0));
    expect(await get_current_time()).toBe(expected);
  });

  it("takes no arguments and accepts an empty object, as a tool call sends", async () => {
    vi.setSystemTime(new Date(2024, 6, 1, 12, 0, 0));
    expect(await get_current_time({})).toBe("2024-07-01 12:00:00");
    await expect(get_current_time("now" as unknown as Record<string, never>)).rejects.toSatisfy(
      ToolArgumentsError.isInstance,
    );
  });

  it("declares itself as the spec's tool", () => {
    const spec = getToolSpec(get_current_time);
    expect(spec.name).toBe("get_current_time");
    expect(spec.returns).toBe("str in format YYYY-MM-DD HH:MM:SS (local current time)");
    expect(spec.description.split("\n")[0]).toBe("Get the current local date and time.");
  });
});
