import { randomUUID } from "node:crypto";
import type { Checkpoint } from "../checkpoint/checkpoint.js";
import type { Checkpointer } from "../checkpoint/checkpointer.js";

/** How {@link runCheckpointerConformance} creates and releases the saver under test. */
export interface CheckpointerConformanceInit<C extends Checkpointer = Checkpointer> {
  /** Names the suite in test output. */
  readonly name: string;
  /** A saver to test; called once per test. */
  createCheckpointer(): C | Promise<C>;
  /**
   * A second client of the same store as `checkpointer` (for a database saver: another
   * connection), used to race two writers. Default: `checkpointer` itself.
   */
  createSecondClient?(checkpointer: C): Checkpointer | Promise<Checkpointer>;
  /** Releases a client (a connection) after each test; called for every client created. */
  destroyCheckpointer?(checkpointer: Checkpointer): void | Promise<void>;
  /** Runs once before the suite, e.g. to create a schema. */
  beforeAll?(): void | Promise<void>;
  /** Runs once after the suite. */
  afterAll?(): void | Promise<void>;
}

/** What each part of the suite gets: fresh clients and a thread id no other test uses. */
export interface ConformanceContext {
  checkpointer(): Promise<Checkpointer>;
  secondClient(first: Checkpointer): Promise<Checkpointer>;
  threadId(label: string): string;
}

/** A thread id unique to this process and test, so savers over a shared database stay apart. */
export function uniqueThreadId(label: string): string {
  return `conformance-${label}-${randomUUID()}`;
}

/** A checkpoint of format version 2 at `seq`; seq 0 holds the snapshot every thread starts on. */
export function checkpointAt(
  threadId: string,
  seq: number,
  writes: Record<string, unknown> = {},
): Checkpoint {
  return {
    version: 2,
    threadId,
    id: `${threadId}-${seq}`,
    parentId: seq === 0 ? null : `${threadId}-${seq - 1}`,
    seq,
    runId: "run-1",
    createdAt: new Date(Date.UTC(2025, 0, 1, 0, 0, seq)).toISOString(),
    source: seq === 0 ? "input" : "node",
    ...(seq === 0 ? {} : { node: "worker" }),
    writes,
    frontier:
      seq === 0 ? { triggered: ["worker"] } : { started: ["worker"], visits: { worker: seq } },
    snapshotSeq: 0,
    snapshotBytes: 420,
    bytesSinceSnapshot: seq * 310,
    ...(seq === 0
      ? {
          snapshot: {
            values: { items: [] },
            frontier: { pending: ["worker"], running: [], visits: {} },
          },
        }
      : {}),
    status: "running",
    metadata: { user_id: "u1" },
  };
}

/** Puts checkpoints `0..count-1` of a thread in order. */
export async function putThread(
  checkpointer: Checkpointer,
  threadId: string,
  count: number,
): Promise<void> {
  for (let seq = 0; seq < count; seq++) await checkpointer.put(checkpointAt(threadId, seq));
}

/** Every item of an async iterable. */
export async function collect<T>(items: AsyncIterable<T>): Promise<T[]> {
  const out: T[] = [];
  for await (const item of items) out.push(item);
  return out;
}
