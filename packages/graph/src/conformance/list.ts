import { expect, it } from "vitest";
import type { StoredCheckpoint } from "../checkpoint/checkpoint.js";
import {
  type ConformanceContext,
  checkpointAt,
  collect,
  putThread,
} from "./conformance-context.js";

const seqs = (list: readonly StoredCheckpoint[]) => list.map((checkpoint) => checkpoint.seq);

/** `list`: newest first, below `beforeSeq`, at most `limit`, pageable. */
export function describeList(context: ConformanceContext): void {
  it("list yields nothing for a thread never written", async () => {
    const saver = await context.checkpointer();
    expect(await collect(saver.list(context.threadId("missing")))).toEqual([]);
  });

  it("list yields newest first, honouring limit and beforeSeq", async () => {
    const saver = await context.checkpointer();
    const thread = context.threadId("list");
    await putThread(saver, thread, 5);
    expect(seqs(await collect(saver.list(thread)))).toEqual([4, 3, 2, 1, 0]);
    expect(seqs(await collect(saver.list(thread, { limit: 2 })))).toEqual([4, 3]);
    expect(seqs(await collect(saver.list(thread, { beforeSeq: 3 })))).toEqual([2, 1, 0]);
    expect(seqs(await collect(saver.list(thread, { beforeSeq: 3, limit: 1 })))).toEqual([2]);
    expect(seqs(await collect(saver.list(thread, { beforeSeq: 99 })))).toEqual([4, 3, 2, 1, 0]);
    expect(await collect(saver.list(thread, { beforeSeq: 0 }))).toEqual([]);
    expect(await collect(saver.list(thread, { limit: 0 }))).toEqual([]);
  });

  it("list returns checkpoints exactly as put", async () => {
    const saver = await context.checkpointer();
    const thread = context.threadId("exact");
    await putThread(saver, thread, 3);
    expect(await collect(saver.list(thread))).toStrictEqual(
      [2, 1, 0].map((seq) => checkpointAt(thread, seq)),
    );
  });

  it("list pages through a long thread with beforeSeq and limit", async () => {
    const saver = await context.checkpointer();
    const thread = context.threadId("paging");
    await putThread(saver, thread, 250);
    const pages: number[][] = [];
    let beforeSeq: number | undefined;
    for (;;) {
      const page = seqs(await collect(saver.list(thread, { limit: 100, beforeSeq })));
      if (page.length === 0) break;
      pages.push(page);
      beforeSeq = page[page.length - 1];
    }
    expect(pages.map((page) => page.length)).toEqual([100, 100, 50]);
    expect(pages.flat()).toEqual(Array.from({ length: 250 }, (_, index) => 249 - index));
  });

  it("list keeps threads apart", async () => {
    const saver = await context.checkpointer();
    const [a, b] = [context.threadId("a"), context.threadId("b")];
    await putThread(saver, a, 1);
    await putThread(saver, b, 2);
    expect(await collect(saver.list(a))).toStrictEqual([checkpointAt(a, 0)]);
    expect(seqs(await collect(saver.list(b)))).toEqual([1, 0]);
  });
}
