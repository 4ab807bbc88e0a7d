import { describe, expect, it } from "vitest";
import { RunEventLog } from "../run/run-event-log.js";
import { pendingRun } from "../store/conformance/conformance-context.js";
import { SqliteServerStore } from "../store/sqlite-server-store.js";
import { OpenStreams, protocolRenderer, runEventStream } from "./run-event-stream.js";

describe("runEventStream", () => {
  it("sends a keep-alive comment when a running run has been quiet for keepAliveMs", async () => {
    const store = new SqliteServerStore({ path: ":memory:" });
    await store.createThread({ threadId: "t", owner: "o", metadata: {} }, { ifExists: "raise" });
    await store.insertRun(pendingRun("o", "t", "r", { status: "running" }));
    const log = new RunEventLog(store);
    const stream = runEventStream(
      {
        store,
        log,
        owner: "o",
        runId: "r",
        afterSeq: 0,
        renderer: protocolRenderer(undefined),
        keepAliveMs: 20,
      },
      new OpenStreams(),
    );
    const reader = stream.getReader();
    const decoder = new TextDecoder();
    expect(decoder.decode((await reader.read()).value)).toBe(": keep-alive\n\n");
    log.append("r", "values", { n: 1 });
    expect(decoder.decode((await reader.read()).value)).toBe(
      'id: 1\nevent: values\ndata: {"n":1}\n\n',
    );
    await store.updateRun("r", { status: "success" });
    log.notify("r");
    expect((await reader.read()).done).toBe(true);
    await store.close();
  });
});
