import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
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
      await first.put({
        version: 1,
        threadId: "7",
        id: "a",
        parentId: null,
        seq: 0,
        runId: "r",
        createdAt: "2025-01-01T00:00:00.000Z",
        source: "input",
        writes: {},
        frontier: { pending: [], running: [], visits: {} },
        status: "done",
        metadata: {},
      });
      first.close();
      const second = openAppCheckpointer(path);
      expect((await second.getLatest("7"))?.id).toBe("a");
      second.close();
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
