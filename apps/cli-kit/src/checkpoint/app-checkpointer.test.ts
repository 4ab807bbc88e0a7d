import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { checkpointAt } from "@framework/graph/conformance";
import { afterEach, describe, expect, it, vi } from "vitest";
import { checkpointDbPath, openAppCheckpointer } from "./app-checkpointer.js";

afterEach(() => {
  vi.unstubAllEnvs();
});

describe("checkpointDbPath", () => {
  it("prefers --db, then FRAMEWORK_CHECKPOINT_DB, then .framework/checkpoints.sqlite", () => {
    vi.stubEnv("FRAMEWORK_CHECKPOINT_DB", "");
    expect(checkpointDbPath(undefined, "/work")).toBe("/work/.framework/checkpoints.sqlite");
    vi.stubEnv("FRAMEWORK_CHECKPOINT_DB", "state/crew.sqlite");
    expect(checkpointDbPath(undefined, "/work")).toBe("/work/state/crew.sqlite");
    expect(checkpointDbPath("/tmp/other.sqlite", "/work")).toBe("/tmp/other.sqlite");
  });
});

describe("openAppCheckpointer", () => {
  it("creates the database and keeps a thread across openings", async () => {
    const dir = await mkdtemp(join(tmpdir(), "app-checkpointer-"));
    try {
      const path = join(dir, "deep", "checkpoints.sqlite");
      const first = openAppCheckpointer(path);
      await first.put({ ...checkpointAt("7", 0), id: "a" });
      first.close();
      const second = openAppCheckpointer(path);
      expect((await second.getLatest("7"))?.id).toBe("a");
      second.close();
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
