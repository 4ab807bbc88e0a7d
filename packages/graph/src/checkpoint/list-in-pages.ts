import type { StoredCheckpoint } from "./checkpoint.js";
import type { Checkpointer, ListCheckpointsOptions } from "./checkpointer.js";

/** One stored checkpoint as a database saver reads it: its `seq` and its JSON text. */
export interface CheckpointRow {
  readonly seq: number | string;
  readonly checkpoint: string;
}

/**
 * Reads one page of a thread, newest first: the rows with `seq` below `beforeSeq`, at most
 * `limit` of them.
 */
export type CheckpointPageReader = (
  beforeSeq: number,
  limit: number,
) => readonly CheckpointRow[] | Promise<readonly CheckpointRow[]>;

/** Rows per page when a saver does not choose. */
const defaultPageSize = 64;

/**
 * {@link Checkpointer.list} for a saver backed by a database: walks the thread newest first a
 * page at a time, so a long history is never held at once and no read stays open between
 * pages (a writer is never blocked by a slow consumer). `seq` may come back as a string, as
 * Postgres returns `bigint` columns.
 */
export async function* listInPages(
  readPage: CheckpointPageReader,
  options: ListCheckpointsOptions = {},
  pageSize: number = defaultPageSize,
): AsyncGenerator<StoredCheckpoint> {
  let remaining = options.limit ?? Number.POSITIVE_INFINITY;
  let before = options.beforeSeq ?? Number.MAX_SAFE_INTEGER;
  while (remaining > 0) {
    const size = Math.min(pageSize, remaining);
    const rows = await readPage(before, size);
    for (const row of rows) yield JSON.parse(row.checkpoint) as StoredCheckpoint;
    if (rows.length < size) return;
    remaining -= rows.length;
    before = Number(rows[rows.length - 1]!.seq);
  }
}
