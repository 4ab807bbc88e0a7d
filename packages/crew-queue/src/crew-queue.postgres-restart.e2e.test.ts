import { PostgresSaver } from "@framework/checkpoint-postgres";
import { internalsOf } from "@framework/checkpoint-postgres/internal";
import { silentLogger } from "@framework/core";
import {
  canRunPrivatePostgres,
  type PrivatePostgres,
  startPrivatePostgres,
  uniqueName,
} from "@framework/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CrewQueue } from "./crew-queue.js";
import { CrewWorker } from "./crew-worker.js";
import { expectedState, testCrew } from "./test-crew.js";
import { effectsOf, loseQueueKeys, redisUrl, servicesMissing } from "./test-services.js";

// Postgres restarted under a running crew: the run fails with a typed error, BullMQ retries
// its job with backoff, and a retry resumes it from its last checkpoint once the server is
// back. On a private server, so stopping it disturbs no other test.
if (!canRunPrivatePostgres && (process.env.CI === "true" || process.env.CI === "1")) {
  throw new Error("PostgreSQL server programs (initdb, pg_ctl) are missing: CI must not skip this");
}

describe.skipIf(servicesMissing || !canRunPrivatePostgres)(
  "crew-queue across a Postgres restart",
  () => {
    let server: PrivatePostgres;
    const queueName = uniqueName("restart");
    beforeAll(async () => {
      server = await startPrivatePostgres();
    });
    afterAll(async () => {
      server.destroy();
      await loseQueueKeys(queueName);
    });

    it("fails the run with PostgresUnavailableError, retries it with backoff, and finishes it", async () => {
      const saver = new PostgresSaver({ connectionString: server.url, schema: "crews" });
      await saver.setup();
      await internalsOf(saver).query(
        "effects",
        `CREATE TABLE crews.effects (key text, node text, run_id text, worker text, at timestamptz DEFAULT clock_timestamp())`,
      );
      const connection = { url: redisUrl! };
      const queue = new CrewQueue({
        connection,
        checkpointer: saver,
        queueName,
        jobAttempts: 20,
        retryBackoffMs: 100,
      });
      const warnings: string[] = [];
      let restartIn: string | undefined = "b";
      let stopped = false;
      const worker = new CrewWorker({
        connection,
        checkpointer: saver,
        queueName,
        workerId: "w",
        jobAttempts: 20,
        retryBackoffMs: 100,
        sweepIntervalMs: 0,
        logger: {
          ...silentLogger,
          warn: (line: string) => {
            warnings.push(line);
            // Back only once the worker gave the run up: b's checkpoint cannot have been written.
            if (stopped && /interrupted, retried later/.test(line)) {
              stopped = false;
              server.start();
            }
          },
        },
        crews: {
          test: testCrew({
            saver,
            worker: "w",
            hooks: {
              b: () => {
                if (restartIn !== "b") return;
                restartIn = undefined;
                // b's side effect is recorded; its checkpoint will not be, until the retry.
                server.stop();
                stopped = true;
              },
            },
          }),
        },
      });
      try {
        await worker.start();
        const run = await queue.submit("test", { query: "q", threadId: "r" });
        expect(await queue.result(run.runId)).toMatchObject(expectedState("q"));

        expect(
          warnings.some((line) =>
            /interrupted, retried later: PostgresUnavailableError/.test(line),
          ),
        ).toBe(true);
        const record = await queue.get(run.runId);
        expect(record.status).toBe("done");
        expect(record.attempts).toBeGreaterThanOrEqual(2);
        // Nothing finished before the restart ran again; b, cut short, did.
        expect((await effectsOf(saver, run.runId)).map((effect) => effect.node)).toEqual([
          "a",
          "b",
          "b",
          "c",
        ]);
      } finally {
        await worker.close();
        await queue.close();
        await saver.close();
      }
    });
  },
);
