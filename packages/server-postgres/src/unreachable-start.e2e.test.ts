import { PostgresSaver } from "@framework/checkpoint-postgres";
import type { RunChangeKind } from "@framework/server";
import { pendingRun } from "@framework/server/conformance";
import {
  canRunPrivatePostgres,
  type PrivatePostgres,
  startPrivatePostgres,
} from "@framework/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { PostgresServerStore } from "./postgres-server-store.js";

// An instance started while Postgres is down must follow the others once it is back. On a
// private server, so stopping it disturbs no other test.
if (!canRunPrivatePostgres && (process.env.CI === "true" || process.env.CI === "1")) {
  throw new Error("PostgreSQL server programs (initdb, pg_ctl) are missing: CI must not skip this");
}

describe.skipIf(!canRunPrivatePostgres)(
  "PostgresServerStore started while Postgres is down",
  () => {
    let server: PrivatePostgres;
    beforeAll(async () => {
      server = await startPrivatePostgres();
    });
    afterAll(() => server.destroy());

    it("keeps its watcher, connects once Postgres is back, and tells it so", async () => {
      const writerSaver = new PostgresSaver({ connectionString: server.url, schema: "shared" });
      const writer = new PostgresServerStore({ checkpointer: writerSaver });
      await writer.setup();
      server.stop();
      const readerSaver = new PostgresSaver({ connectionString: server.url, schema: "shared" });
      const reader = new PostgresServerStore({ checkpointer: readerSaver });
      const heard: string[] = [];
      try {
        const refused = await reader
          .watchRuns({
            changed: (runId: string, kind: RunChangeKind) => heard.push(`${kind}:${runId}`),
            lost: () => heard.push("lost"),
            resumed: () => heard.push("resumed"),
          })
          .catch((error: unknown) => error);
        expect(refused).toBeInstanceOf(Error);
        server.start();
        await expect.poll(() => heard, { timeout: 30_000 }).toEqual(["resumed"]);
        await writer.createThread(
          { threadId: "t", owner: "o", metadata: {} },
          { ifExists: "raise" },
        );
        await writer.insertRun(pendingRun("o", "t", "r"));
        await writer.updateRun("r", { status: "running" });
        await expect.poll(() => heard).toEqual(["resumed", "run:r"]);
      } finally {
        await reader.close();
        await writer.close();
        await readerSaver.close();
        await writerSaver.close();
      }
    });
  },
);
