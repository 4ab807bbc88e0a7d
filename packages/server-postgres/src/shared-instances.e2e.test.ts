import { setTimeout as sleep } from "node:timers/promises";
import { describe, expect, it } from "vitest";
import { testInstances } from "./test-instances.js";
import { postgresUrl, sql } from "./test-postgres.js";

const instances = testInstances();

/** Two instances over a fresh schema, each with a client, sharing one test world. */
const twoInstances = (options: { keepAliveMs?: number; recoveryIntervalMs?: number } = {}) =>
  instances.two("instances", options);

type StreamPart = { id?: string; event: string; data: unknown };

/** Reads a stream until `stop` says so (the client then drops it), or to its end. */
async function readUntil(
  stream: AsyncIterable<StreamPart>,
  stop: (part: StreamPart) => boolean = () => false,
): Promise<StreamPart[]> {
  const parts: StreamPart[] = [];
  for await (const part of stream) {
    parts.push(part);
    if (stop(part)) break;
  }
  return parts;
}

const updated = (node: string) => (part: StreamPart) =>
  part.event === "updates" && node in (part.data as object);

describe.skipIf(postgresUrl === undefined)("server instances sharing one Postgres", () => {
  it("reads, streams and rejoins on one instance a run executing on another: no event lost, none twice", async () => {
    const { world, clientA, clientB } = await twoInstances({ keepAliveMs: 600_000 });
    const thread = await clientA.threads.create();
    const run = await clientA.runs.create(thread.thread_id, "chain", {
      input: { hold: true, label: "1" },
      streamMode: ["updates", "values"],
    });
    expect((await clientB.runs.get(thread.thread_id, run.run_id)).run_id).toBe(run.run_id);
    expect((await clientB.threads.get(thread.thread_id)).thread_id).toBe(thread.thread_id);

    // B follows the run live (woken by A's notifications: its keep-alive never fires), and
    // its client drops the stream once `a` is done.
    const seen = await readUntil(
      clientB.runs.joinStream(thread.thread_id, run.run_id),
      updated("a"),
    );
    const rejoined = readUntil(
      clientB.runs.joinStream(thread.thread_id, run.run_id, { lastEventId: seen.at(-1)!.id! }),
    );
    // Time for B's rejoined stream to read what there is and wait for more (were it not yet
    // waiting, it would read the rest without needing a wake-up, and pass all the same).
    await sleep(300);
    world.gate.open();
    const rest = await rejoined;
    const whole = await readUntil(clientA.runs.joinStream(thread.thread_id, run.run_id));

    const ids = [...seen, ...rest].map((part) => part.id);
    expect(ids).toEqual(whole.map((part) => part.id));
    expect([...seen, ...rest].map((part) => part.data)).toEqual(whole.map((part) => part.data));
    expect(new Set(ids).size).toBe(ids.length);
    expect(
      whole
        .filter((part) => part.event === "updates")
        .map((part) => Object.keys(part.data as object)[0]),
    ).toEqual(["a", "b", "c"]);
    // A executed it all; B only served it.
    expect(world.ran).toEqual(["A:a:1", "A:b:1", "A:c:1"]);
    expect((await clientB.runs.get(thread.thread_id, run.run_id)).status).toBe("success");
    expect((await clientB.threads.getState(thread.thread_id)).values).toMatchObject({
      trail: ["a1", "b1", "c1"],
    });
  });

  it("cancels on one instance a run executing on another, which stops it", async () => {
    const { world, clientA, clientB } = await twoInstances();
    const thread = await clientA.threads.create();
    const run = await clientA.runs.create(thread.thread_id, "chain", {
      input: { hold: true, label: "1" },
      streamMode: ["updates"],
    });
    await readUntil(clientB.runs.joinStream(thread.thread_id, run.run_id), updated("a"));
    await clientB.runs.cancel(thread.thread_id, run.run_id, true);

    expect((await clientA.runs.get(thread.thread_id, run.run_id)).status).toBe("interrupted");
    expect((await clientB.threads.get(thread.thread_id)).status).toBe("idle");
    expect(world.ran).toEqual(["A:a:1", "A:b:1"]);
    // A gave the thread up: a run created on B now executes, wherever.
    const next = (await clientB.runs.wait(thread.thread_id, "chain", {
      input: { hold: false, label: "2" },
    })) as { trail: string[] };
    expect(next.trail[0]).toBe("a1");
    expect(next.trail.at(-1)).toBe("c2");
  });

  it("resumes on one instance a run interrupted on another, answering its interrupt once", async () => {
    const { world, clientA, clientB } = await twoInstances();
    const thread = await clientA.threads.create();
    await clientA.runs.wait(thread.thread_id, "chain", { input: { ask: true, label: "1" } });
    const [asked] = await clientB.runs.list(thread.thread_id);
    expect(asked?.status).toBe("interrupted");
    expect((await clientB.threads.get(thread.thread_id)).status).toBe("interrupted");
    const answer = { command: { resume: "-yes" } };
    const values = await clientB.runs.wait(thread.thread_id, "chain", answer);
    expect(values).toMatchObject({ trail: ["a1", "b1-yes", "c1"] });
    // The same answer again, on A, is the same run; nothing runs twice.
    await clientA.runs.wait(thread.thread_id, "chain", answer);
    expect((await clientA.runs.list(thread.thread_id)).length).toBe(2);
    expect(world.ran.filter((entry) => entry.endsWith(":c:1"))).toHaveLength(1);
  });

  it("continues on another instance, from its last checkpoint, a run its instance left", async () => {
    const { world, a, clientA, clientB } = await twoInstances({ recoveryIntervalMs: 50 });
    const thread = await clientA.threads.create();
    const run = await clientA.runs.create(thread.thread_id, "chain", {
      input: { hold: true, label: "1" },
      streamMode: ["updates"],
    });
    const seen = await readUntil(
      clientB.runs.joinStream(thread.thread_id, run.run_id),
      updated("a"),
    );
    // A goes away mid-run (its lease with it); the run stays `running` until B takes it over.
    await a.close();
    await expect.poll(() => world.ran.includes("B:b:1")).toBe(true);
    world.gate.open();
    const rest = await readUntil(
      clientB.runs.joinStream(thread.thread_id, run.run_id, { lastEventId: seen.at(-1)!.id! }),
    );
    expect(
      [...seen, ...rest]
        .filter((part) => part.event === "updates")
        .map((part) => Object.keys(part.data as object)[0]),
    ).toEqual(["a", "b", "c"]);
    // `a` was checkpointed on A and never ran again; `b` had not finished, so B ran it again.
    expect(world.ran).toEqual(["A:a:1", "A:b:1", "B:b:1", "B:c:1"]);
    expect(await clientB.runs.get(thread.thread_id, run.run_id)).toMatchObject({
      status: "success",
    });
  });

  it("wakes followers again after its listening connection was cut", async () => {
    const { schema, world, clientA, clientB } = await twoInstances({ keepAliveMs: 600_000 });
    const listening = async () =>
      (
        await sql("SELECT pid FROM pg_stat_activity WHERE query = $1 AND pid <> pg_backend_pid()", [
          `LISTEN "server_runs_${schema}"`,
        ])
      ).rows as { pid: number }[];
    // Both instances' LISTEN connections are cut; each connects again on its own.
    const before = await listening();
    expect(before).toHaveLength(2);
    await sql("SELECT pg_terminate_backend(pid) FROM unnest($1::int[]) AS pid", [
      before.map((row) => row.pid),
    ]);
    await expect
      .poll(async () =>
        (await listening()).filter((row) => !before.some((old) => old.pid === row.pid)),
      )
      .toHaveLength(2);
    const thread = await clientA.threads.create();
    const run = await clientA.runs.create(thread.thread_id, "chain", {
      input: { hold: true, label: "1" },
      streamMode: ["updates"],
    });
    await expect.poll(() => world.ran.includes("A:b:1")).toBe(true);
    const followed = readUntil(clientB.runs.joinStream(thread.thread_id, run.run_id));
    await sleep(300);
    world.gate.open();
    const parts = await followed;
    expect(
      parts
        .filter((part) => part.event === "updates")
        .map((part) => Object.keys(part.data as object)[0]),
    ).toEqual(["a", "b", "c"]);
  });
});
