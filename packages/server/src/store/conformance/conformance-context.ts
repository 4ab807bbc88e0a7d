import { randomUUID } from "node:crypto";
import type { RunRecord, ServerStore } from "../server-store.js";

/** How {@link runServerStoreConformance} creates and releases the store under test. */
export interface ServerStoreConformanceInit<S extends ServerStore = ServerStore> {
  /** Names the suite in test output. */
  readonly name: string;
  /** A store to test; called once per test. */
  createStore(): S | Promise<S>;
  /**
   * A second client of the same store (for a database store: another connection), used to
   * race two writers. Default: the store itself.
   */
  createSecondClient?(store: S): ServerStore | Promise<ServerStore>;
  /** Releases a client after each test; called for every client created. Default `close()`. */
  destroyStore?(store: ServerStore): void | Promise<void>;
}

/** What each part of the suite gets: fresh clients and ids no other test uses. */
export interface StoreConformanceContext {
  store(): Promise<ServerStore>;
  secondClient(first: ServerStore): Promise<ServerStore>;
  /** An id unique to this test, for a thread, a run or an owner. */
  id(label: string): string;
}

/** A unique id, so stores over a shared database need no cleanup between tests. */
export function uniqueId(label: string): string {
  return `${label}-${randomUUID()}`;
}

/** A pending run of `owner` on `threadId`, ready for `insertRun`. */
export function pendingRun(
  owner: string,
  threadId: string,
  runId: string,
  overrides: Partial<Omit<RunRecord, "createdAt" | "updatedAt">> = {},
): Omit<RunRecord, "createdAt" | "updatedAt"> {
  return {
    runId,
    threadId,
    assistantId: "assistant",
    owner,
    status: "pending",
    metadata: { source: "conformance" },
    multitaskStrategy: "reject",
    request: {
      input: { messages: [{ role: "user", content: "hi \u0000 there" }] },
      config: { configurable: { tag: "x" } },
      streamMode: ["values"],
      onDisconnect: "continue",
      checkpointId: null,
      temporary: false,
    },
    error: null,
    attempt: 1,
    checkpointBefore: null,
    cancel: null,
    ...overrides,
  };
}
