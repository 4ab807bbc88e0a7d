import { PostgresSaver } from "@framework/checkpoint-postgres";
import { ConfigurationError } from "@framework/core";
import { afterAll, afterEach, describe, expect, it, vi } from "vitest";
import { checkpointerOf } from "./checkpointer-option.js";

// A saver that never connects: these tests only pass it around.
const saver = new PostgresSaver({ connectionString: "postgres://127.0.0.1:1/none" });
const other = new PostgresSaver({ connectionString: "postgres://127.0.0.1:1/none" });
const connection = { url: "redis://127.0.0.1:1" };
afterAll(() => Promise.all([saver.close(), other.close()]));
afterEach(() => {
  vi.restoreAllMocks();
});

function settingOf(call: () => unknown): string | undefined {
  try {
    call();
  } catch (error) {
    return ConfigurationError.isInstance(error) ? error.setting : "another error";
  }
  return undefined;
}

// The warning is once per process, so the order of these tests matters: nothing before the
// second one may use `saver`.
describe("checkpointerOf", () => {
  it("takes checkpointer, warning nothing", () => {
    const warn = vi.spyOn(process, "emitWarning").mockImplementation(() => undefined);
    expect(checkpointerOf({ connection, checkpointer: saver }, "CrewQueue")).toBe(saver);
    expect(warn).not.toHaveBeenCalled();
  });

  it("takes the deprecated saver, warning once per process", () => {
    const warn = vi.spyOn(process, "emitWarning").mockImplementation(() => undefined);
    expect(checkpointerOf({ connection, saver }, "CrewQueue")).toBe(saver);
    expect(checkpointerOf({ connection, saver: other }, "CrewWorker")).toBe(other);
    expect(warn).toHaveBeenCalledTimes(1);
    expect(warn).toHaveBeenCalledWith(
      expect.stringContaining("pass the same PostgresSaver as checkpointer"),
      {
        type: "DeprecationWarning",
        code: "FRAMEWORK_CREW_QUEUE_SAVER",
      },
    );
  });

  it("accepts both names for one saver, and refuses two different savers", () => {
    expect(checkpointerOf({ connection, checkpointer: saver, saver } as never, "CrewQueue")).toBe(
      saver,
    );
    expect(
      settingOf(() =>
        checkpointerOf({ connection, checkpointer: saver, saver: other } as never, "CrewQueue"),
      ),
    ).toBe("checkpointer");
  });

  it("refuses options without a saver", () => {
    expect(settingOf(() => checkpointerOf({ connection } as never, "CrewWorker"))).toBe(
      "checkpointer",
    );
  });
});
