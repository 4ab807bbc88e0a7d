import { ConfigurationError, getToolSpec, ToolArgumentsError } from "@framework/core";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { createCurrentTimeTool, get_current_time } from "./get-current-time.js";

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

describe("createCurrentTimeTool", () => {
  it("tells the time in its own zone, whatever TZ says, with the same format", async () => {
    vi.stubEnv("TZ", "America/New_York");
    vi.setSystemTime(Date.UTC(2024, 11, 31, 15, 30, 7));
    const tokyo = createCurrentTimeTool({ timeZone: "Asia/Tokyo" });
    const hanoi = createCurrentTimeTool({ timeZone: "Asia/Ho_Chi_Minh" });
    expect(await tokyo()).toBe("2025-01-01 00:30:07");
    expect(await hanoi({})).toBe("2024-12-31 22:30:07");
    expect(await get_current_time()).toBe("2024-12-31 10:30:07");
  });

  it("writes midnight as 00 and pads every field", async () => {
    vi.setSystemTime(Date.UTC(2024, 0, 4, 23, 5, 9));
    expect(await createCurrentTimeTool({ timeZone: "Europe/Paris" })()).toBe("2024-01-05 00:05:09");
    expect(await createCurrentTimeTool({ timeZone: "UTC" })()).toBe("2024-01-04 23:05:09");
  });

  it("is get_current_time, telling the model its zone", () => {
    const spec = getToolSpec(createCurrentTimeTool({ timeZone: "Asia/Tokyo" }));
    const reference = getToolSpec(get_current_time);
    expect(spec.name).toBe("get_current_time");
    expect(spec.returns).toBe(reference.returns);
    expect(Object.keys(spec.parameters.shape)).toEqual([]);
    expect(spec.description).toBe(
      "Get the current local date and time.\nReturns it as YYYY-MM-DD HH:MM:SS on a 24-hour clock, in the Asia/Tokyo time zone.",
    );
    expect(reference.description).toMatch(/in the machine's time zone\.$/);
  });

  it("refuses a zone the runtime does not know, when it is created", () => {
    let failure: unknown;
    try {
      createCurrentTimeTool({ timeZone: "Mars/Olympus_Mons" });
    } catch (error) {
      failure = error;
    }
    expect(ConfigurationError.isInstance(failure)).toBe(true);
    expect(failure).toMatchObject({ setting: "timeZone" });
  });
});
