import { EventChannel } from "./event-channel.js";

/**
 * Turns a run that reports through a callback into an async iterable of its events. The run
 * gets a signal that fires when the consumer stops early (`break`, `return`, a throw in the
 * loop body) or `signal` fires, and the iterable only finishes once the run has settled, so
 * nothing it started (a model call, a tool) is left running behind the consumer's back.
 * The run's own failure is not rethrown: it is expected to report it as an event.
 */
export async function* eventStream<E>(
  run: (emit: (event: E) => void, signal: AbortSignal) => Promise<unknown>,
  signal?: AbortSignal,
): AsyncGenerator<E, void, undefined> {
  const stop = new AbortController();
  const channel = new EventChannel<E>();
  const running = run(
    (event) => channel.push(event),
    signal ? AbortSignal.any([signal, stop.signal]) : stop.signal,
  ).then(
    () => channel.close(),
    () => channel.close(),
  );
  try {
    yield* channel;
  } finally {
    stop.abort(new Error("the consumer stopped reading the stream"));
    await running;
  }
}
