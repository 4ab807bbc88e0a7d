// What a server child of item 11 and the bench say to each other over the child's IPC channel.
// Imported by the children (bundled into each) and, for its types, by the bench.
import { subscribe } from "node:diagnostics_channel";
import type { IncomingMessage } from "node:http";

/** A server child's memory, in megabytes. */
export interface ChildMemory {
  /** Resident set size now. */
  readonly rssMb: number;
  /** Its peak so far (`getrusage`). */
  readonly peakRssMb: number;
  /** Heap in use now. */
  readonly heapMb: number;
}

/**
 * What a server child has done since it started: the bench reads it before and after a
 * sample, and the differences say how much of a round trip the server itself spent.
 */
export interface ChildWork {
  /** The HTTP requests' time in the server, summed: each from its arrival to its answer's end. */
  readonly serverMs: number;
  /** The process's CPU time, user and system. */
  readonly cpuMs: number;
}

/** What the bench asks a server child. */
export type ToServerChild =
  | {
      readonly type: "memory";
      /** Collect garbage first, so the heap is what is still held. */
      readonly collect: boolean;
    }
  | { readonly type: "work" }
  /** Run the served graph `runs` times with no server in the way (our child only). */
  | { readonly type: "graph-alone"; readonly runs: number };

/** What a server child tells the bench. */
export type FromServerChild =
  | { readonly type: "ready"; readonly url: string }
  | { readonly type: "memory"; readonly memory: ChildMemory }
  | { readonly type: "work"; readonly work: ChildWork }
  | { readonly type: "graph-alone"; readonly msPerRun: number };

const send = (message: FromServerChild) => process.send?.(message);

/**
 * Times the requests every HTTP server of this process answers, through Node's own
 * diagnostics channels: the same measure for each side, whatever its framework.
 */
function countWork(): () => ChildWork {
  const arrivals = new WeakMap<IncomingMessage, number>();
  let serverMs = 0;
  subscribe("http.server.request.start", (message) => {
    arrivals.set((message as { request: IncomingMessage }).request, performance.now());
  });
  subscribe("http.server.response.finish", (message) => {
    const arrived = arrivals.get((message as { request: IncomingMessage }).request);
    if (arrived !== undefined) serverMs += performance.now() - arrived;
  });
  return () => {
    const cpu = process.cpuUsage();
    return { serverMs, cpuMs: (cpu.user + cpu.system) / 1000 };
  };
}

/** What a server child can do besides answering HTTP. */
export interface ChildAbilities {
  /**
   * Runs the graph the child serves `runs` times on fresh threads, bound to a checkpointer as
   * the server binds it but with no server in the way, and says the mean ms per run.
   */
  readonly graphAlone?: (runs: number) => Promise<number>;
}

/**
 * Makes this process a server child of the bench: says the server at `url` is ready, answers
 * questions about its memory and its work, and exits when the bench goes away.
 */
export function serveAsChild(url: string, abilities: ChildAbilities = {}): void {
  const work = countWork();
  process.on("message", (message: ToServerChild) => {
    if (message.type === "work") {
      send({ type: "work", work: work() });
      return;
    }
    if (message.type === "graph-alone") {
      if (!abilities.graphAlone) throw new Error("this server child cannot run its graph alone");
      void abilities.graphAlone(message.runs).then((msPerRun) => {
        send({ type: "graph-alone", msPerRun });
      });
      return;
    }
    // `--expose-gc`, which the bench starts every server child with.
    if (message.collect) (globalThis as { gc?: () => void }).gc?.();
    const usage = process.memoryUsage();
    send({
      type: "memory",
      memory: {
        rssMb: usage.rss / 1e6,
        // maxRSS is in kibibytes.
        peakRssMb: (process.resourceUsage().maxRSS * 1024) / 1e6,
        heapMb: usage.heapUsed / 1e6,
      },
    });
  });
  process.on("disconnect", () => process.exit(0));
  send({ type: "ready", url });
}
