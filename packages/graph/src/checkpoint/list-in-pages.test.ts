import { describe, expect, it } from "vitest";
import type { CheckpointRow } from "./list-in-pages.js";
import { listInPages } from "./list-in-pages.js";

/** A thread of `count` rows whose JSON is just their seq, read the way a database would. */
function store(count: number, seqAsText = false) {
  const reads: { beforeSeq: number; limit: number }[] = [];
  const readPage = (beforeSeq: number, limit: number): CheckpointRow[] => {
    reads.push({ beforeSeq, limit });
    const rows: CheckpointRow[] = [];
    for (let seq = Math.min(beforeSeq, count) - 1; seq >= 0 && rows.length < limit; seq--) {
      rows.push({ seq: seqAsText ? String(seq) : seq, checkpoint: JSON.stringify({ seq }) });
    }
    return rows;
  };
  return { readPage, reads };
}

async function seqs(iterable: AsyncIterable<unknown>): Promise<number[]> {
  const out: number[] = [];
  for await (const item of iterable) out.push((item as { seq: number }).seq);
  return out;
}

describe("listInPages", () => {
  it("walks the whole thread newest first, one page at a time", async () => {
    const { readPage, reads } = store(10);
    expect(await seqs(listInPages(readPage, {}, 4))).toEqual([9, 8, 7, 6, 5, 4, 3, 2, 1, 0]);
    expect(reads.map((read) => read.beforeSeq)).toEqual([Number.MAX_SAFE_INTEGER, 6, 2]);
  });

  it("honours beforeSeq and limit, asking for no more rows than the limit", async () => {
    const { readPage, reads } = store(10);
    expect(await seqs(listInPages(readPage, { beforeSeq: 7, limit: 5 }, 3))).toEqual([
      6, 5, 4, 3, 2,
    ]);
    expect(reads).toEqual([
      { beforeSeq: 7, limit: 3 },
      { beforeSeq: 4, limit: 2 },
    ]);
  });

  it("continues after a page whose seq came back as text, as Postgres bigints do", async () => {
    const { readPage } = store(5, true);
    expect(await seqs(listInPages(readPage, {}, 2))).toEqual([4, 3, 2, 1, 0]);
  });

  it("reads nothing more once a short page shows the thread's start", async () => {
    const { readPage, reads } = store(3);
    expect(await seqs(listInPages(readPage, {}, 2))).toEqual([2, 1, 0]);
    expect(reads).toHaveLength(2);
  });
});
