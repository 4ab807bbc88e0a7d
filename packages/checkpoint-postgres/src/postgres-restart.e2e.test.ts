import { appendReducer, defineState, END, FlowStateGraph, reducer, START } from "@framework/graph";
import { checkpointAt as testCheckpoint } from "@framework/graph/conformance";
import {
  canRunPrivatePostgres,
  type PrivatePostgres,
  startPrivatePostgres,
} from "@framework/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { PostgresUnavailableError } from "./error/postgres-unavailable-error.js";
import { PostgresSaver } from "./postgres-saver.js";
import { postgresUrl } from "./test-postgres.js";

// A Postgres restart mid-run: the run fails with a typed error, nothing saved is lost, and
// the thread resumes once the server is back. Runs on a private server, so stopping it
// disturbs no other test; it needs the same server programs `pnpm services:start` uses.
if (!canRunPrivatePostgres && (process.env.CI === "true" || process.env.CI === "1")) {
  throw new Error("PostgreSQL server programs (initdb, pg_ctl) are missing: CI must not skip this");
}
const available = canRunPrivatePostgres && postgresUrl !== undefined;

describe.skipIf(!available)("PostgresSaver across a server restart", () => {
  let server: PrivatePostgres;
  beforeAll(async () => {
    server = await startPrivatePostgres();
  }, 120_000);
  afterAll(() => server?.destroy());

  it("fails puts with PostgresUnavailableError while down and loses nothing", async () => {
    const saver = new PostgresSaver({ connectionString: server.url, schema: "restart_puts" });
    try {
      for (let seq = 0; seq < 5; seq++) await saver.put(testCheckpoint("t", seq));
      server.stop();
      const down = saver.put(testCheckpoint("t", 5));
      await expect(down).rejects.toSatisfy(PostgresUnavailableError.isInstance);
      await expect(saver.getLatest("t")).rejects.toSatisfy(PostgresUnavailableError.isInstance);
      server.start();
      await saver.put(testCheckpoint("t", 5));
      const seqs: number[] = [];
      for await (const checkpoint of saver.list("t")) seqs.push(checkpoint.seq);
      expect(seqs).toEqual([5, 4, 3, 2, 1, 0]);
    } finally {
      await saver.close();
    }
  }, 120_000);

  it("lets a graph whose server restarted mid-run resume without re-running finished nodes", async () => {
    const State = defineState({
      log: reducer(z.array(z.string()), appendReducer, () => []),
    });
    const runs: string[] = [];
    let restartDuring: string | undefined = "second";
    const step = (name: string) => () => {
      runs.push(name);
      if (restartDuring === name) {
        restartDuring = undefined;
        server.stop();
      }
      return { log: name };
    };
    const errors: string[] = [];
    const logger = { debug() {}, info() {}, warn() {}, error: (line: string) => errors.push(line) };
    const build = (saver: PostgresSaver) =>
      new FlowStateGraph(State)
        .addNode("first", step("first"))
        .addNode("second", step("second"))
        .addNode("third", step("third"))
        .addEdge(START, "first")
        .addEdge("first", "second")
        .addEdge("second", "third")
        .addEdge("third", END)
        .compile({ checkpointer: saver, logger });
    const config = { configurable: { thread_id: "restarted" } };

    const saver = new PostgresSaver({ connectionString: server.url, schema: "restart_graph" });
    try {
      const failed = await build(saver)
        .invoke({ log: "input" }, config)
        .catch((error: unknown) => error);
      expect(PostgresUnavailableError.isInstance(failed)).toBe(true);
      expect(errors.join("\n")).toMatch(/Could not save the failed state/);
      server.start();
      const final = await build(saver).invoke(null, config);
      expect(final).toEqual({ log: ["input", "first", "second", "third"] });
      // "second" ran again only because its checkpoint could not be saved; "first" did not.
      expect(runs).toEqual(["first", "second", "second", "third"]);
    } finally {
      await saver.close();
    }
  }, 120_000);
});
