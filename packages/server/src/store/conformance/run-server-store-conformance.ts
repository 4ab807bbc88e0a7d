import { afterEach, describe } from "vitest";
import type { ServerStore } from "../server-store.js";
import {
  type ServerStoreConformanceInit,
  type StoreConformanceContext,
  uniqueId,
} from "./conformance-context.js";
import { describeCrons } from "./crons.js";
import { describeEvents } from "./events.js";
import { describeRuns } from "./runs.js";
import { describeThreads } from "./threads.js";

/**
 * Registers the vitest tests every {@link ServerStore} must pass, one group per concern:
 * threads (ownership, search, metadata, status, head, deletion), runs (the multitask rule
 * applied atomically, with two clients racing; ownership; listing; recovery) and run events
 * (numbering without gaps under racing writers, exact JSON round trips, ownership, trimming)
 * and crons (ownership, search and count, changes, the upcoming list, a tick claimed once by
 * racing clients, deletion with their thread).
 * Ids are unique per test, so a store over a shared database needs no cleanup between tests.
 *
 * @example
 * runServerStoreConformance({
 *   name: "SqliteServerStore",
 *   createStore: () => new SqliteServerStore({ path: ":memory:" }),
 * });
 */
export function runServerStoreConformance<S extends ServerStore>(
  init: ServerStoreConformanceInit<S>,
): void {
  describe(`${init.name} server store conformance`, () => {
    const created: ServerStore[] = [];
    afterEach(async () => {
      for (const client of created.splice(0))
        await (init.destroyStore ? init.destroyStore(client) : client.close());
    });
    const context: StoreConformanceContext = {
      async store() {
        const store = await init.createStore();
        created.push(store);
        return store;
      },
      async secondClient(first) {
        if (!init.createSecondClient) return first;
        const client = await init.createSecondClient(first as S);
        if (client !== first) created.push(client);
        return client;
      },
      id: uniqueId,
    };
    describe("threads", () => describeThreads(context));
    describe("runs", () => describeRuns(context));
    describe("events", () => describeEvents(context));
    describe("crons", () => describeCrons(context));
  });
}
