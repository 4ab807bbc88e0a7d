import { afterAll, afterEach, beforeAll, describe } from "vitest";
import type { Checkpointer } from "../checkpoint/checkpointer.js";
import {
  type CheckpointerConformanceInit,
  type ConformanceContext,
  uniqueThreadId,
} from "./conformance-context.js";
import { describeDeleteThread } from "./delete-thread.js";
import { describeGet } from "./get.js";
import { describeGetLatest } from "./get-latest.js";
import { describeGraphOnCheckpointer } from "./graph-on-checkpointer.js";
import { describeList } from "./list.js";
import { describePut } from "./put.js";

/**
 * Registers the vitest tests every {@link Checkpointer} must pass, one group per method:
 * exact JSON round trips (NUL characters, every JSON type, key order), the `seq` rule of
 * `put` with two clients racing for one `seq`, `get` by id, `list` newest first with
 * `beforeSeq`/`limit` paging, snapshot records, deletion, and a graph that fails, resumes,
 * reads through snapshots and travels back in time on the saver. Thread ids are unique per
 * test, so a saver over a shared database needs no cleanup between tests.
 *
 * @example
 * runCheckpointerConformance({
 *   name: "PostgresSaver",
 *   createCheckpointer: () => new PostgresSaver({ connectionString }),
 *   createSecondClient: () => new PostgresSaver({ connectionString }),
 *   destroyCheckpointer: (saver) => saver.close(),
 * });
 */
export function runCheckpointerConformance<C extends Checkpointer>(
  init: CheckpointerConformanceInit<C>,
): void {
  describe(`${init.name} checkpointer conformance`, () => {
    const created: Checkpointer[] = [];
    if (init.beforeAll) beforeAll(init.beforeAll);
    if (init.afterAll) afterAll(init.afterAll);
    afterEach(async () => {
      for (const client of created.splice(0)) await init.destroyCheckpointer?.(client);
    });
    const context: ConformanceContext = {
      async checkpointer() {
        const client = await init.createCheckpointer();
        created.push(client);
        return client;
      },
      async secondClient(first) {
        if (!init.createSecondClient) return first;
        const client = await init.createSecondClient(first as C);
        if (client !== first) created.push(client);
        return client;
      },
      threadId: uniqueThreadId,
    };
    describe("getLatest", () => describeGetLatest(context));
    describe("get", () => describeGet(context));
    describe("put", () => describePut(context));
    describe("list", () => describeList(context));
    describe("deleteThread", () => describeDeleteThread(context));
    describe("a graph on the checkpointer", () => describeGraphOnCheckpointer(context));
  });
}
