import type { RunEventLog } from "../run/run-event-log.js";
import { isRunFinished } from "../run/run-manager.js";
import { eventInModes } from "../run/stream-mode.js";
import type { RunEventRecord, ServerStore } from "../store/server-store.js";

const encoder = new TextEncoder();

/** How many events one read of the log takes. */
const readBatch = 256;

/** One SSE event: its log sequence number as `id`, so a client can resume after it. */
export function sseEvent(record: RunEventRecord): string {
  return `id: ${record.seq}\nevent: ${record.event}\ndata: ${JSON.stringify(record.data)}\n\n`;
}

/** How a stream writes the events it reads from a run's log. */
export interface RunEventRenderer {
  /** The bytes (as text) one logged event becomes; `""` leaves it out. */
  render(record: RunEventRecord): string;
  /** What the stream ends with once the run has ended and every event was sent. */
  end(): string;
}

/**
 * The Agent Protocol's rendering: each event as SSE with its sequence number as `id`, only
 * those of `modes` (and `metadata`, `error`) when given.
 */
export function protocolRenderer(modes: readonly string[] | undefined): RunEventRenderer {
  return {
    render: (record) => (!modes || eventInModes(record.event, modes) ? sseEvent(record) : ""),
    end: () => "",
  };
}

/** What a stream of one run's events follows. */
export interface RunEventFollow {
  readonly store: ServerStore;
  readonly log: RunEventLog;
  readonly owner: string;
  readonly runId: string;
  /** The last event the client has (its `Last-Event-ID`); 0 for all. */
  readonly afterSeq: number;
  /** How the events are written. */
  readonly renderer: RunEventRenderer;
  /** A comment is sent after this long without an event, so proxies keep the connection. */
  readonly keepAliveMs: number;
  /** Called when the client goes away before the run ended. */
  readonly onDisconnect?: () => void;
}

/** Open event streams, so a shutting-down server can end each with a `retry:` hint. */
export class OpenStreams {
  readonly #closers = new Set<(retryMs: number) => void>();

  add(close: (retryMs: number) => void): () => void {
    this.#closers.add(close);
    return () => this.#closers.delete(close);
  }

  /** Ends every open stream, telling clients to reconnect after `retryMs`. */
  closeAll(retryMs: number): void {
    for (const close of [...this.#closers]) close(retryMs);
  }
}

/**
 * A run's events as an SSE byte stream, read from the durable log as the client reads: events
 * are taken from the log only when the client is ready for more, so a slow reader costs the
 * server no memory; it just falls behind in the log. The stream ends once the run has ended
 * and the client has every event.
 */
export function runEventStream(
  follow: RunEventFollow,
  open: OpenStreams,
): ReadableStream<Uint8Array> {
  const stopped = new AbortController();
  // Taken before the first read, so no change made after a read goes unheard.
  const follower = follow.log.follow(follow.runId);
  let cursor = follow.afterSeq;
  let lastSent = Date.now();
  let ended = false;
  let forget = () => {};
  return new ReadableStream<Uint8Array>(
    {
      start(controller) {
        const unlist = open.add((retryMs) => {
          if (ended) return;
          ended = true;
          follower.close();
          stopped.abort();
          controller.enqueue(encoder.encode(`retry: ${retryMs}\n\n`));
          controller.close();
        });
        forget = () => {
          unlist();
          follower.close();
        };
      },
      async pull(controller) {
        for (;;) {
          if (ended) return;
          const records = await follow.log.read(follow.owner, follow.runId, cursor, readBatch);
          if (ended) return;
          const chunks: string[] = [];
          for (const record of records) {
            cursor = record.seq;
            const text = follow.renderer.render(record);
            if (text) chunks.push(text);
          }
          if (chunks.length > 0) {
            lastSent = Date.now();
            controller.enqueue(encoder.encode(chunks.join("")));
            return;
          }
          if (records.length > 0) continue;
          const run = await follow.store.getRun(follow.owner, follow.runId);
          if (ended) return;
          if (!run || isRunFinished(run)) {
            // The run's last events are durable before its status changes: one more read
            // takes any written since the read above.
            const rest = await follow.log.read(follow.owner, follow.runId, cursor, readBatch);
            if (ended) return;
            if (rest.length > 0) continue;
            ended = true;
            forget();
            const trailer = follow.renderer.end();
            if (trailer) controller.enqueue(encoder.encode(trailer));
            controller.close();
            return;
          }
          const wait = follow.keepAliveMs - (Date.now() - lastSent);
          const changed = wait > 0 && (await follower.next(stopped.signal, wait));
          if (ended) return;
          if (!changed && !stopped.signal.aborted && Date.now() - lastSent >= follow.keepAliveMs) {
            lastSent = Date.now();
            controller.enqueue(encoder.encode(": keep-alive\n\n"));
            return;
          }
        }
      },
      cancel() {
        stopped.abort();
        forget();
        if (!ended) {
          ended = true;
          follow.onDisconnect?.();
        }
      },
    },
    { highWaterMark: 0 },
  );
}

/** The headers of an event stream: no caching or buffering anywhere on the way. */
export function sseHeaders(contentLocation: string, location: string): Record<string, string> {
  return {
    "Content-Type": "text/event-stream; charset=utf-8",
    "Cache-Control": "no-cache, no-transform",
    "X-Accel-Buffering": "no",
    "Content-Location": contentLocation,
    Location: location,
  };
}
