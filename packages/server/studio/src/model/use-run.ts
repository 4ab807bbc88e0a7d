import { useCallback, useEffect, useRef, useState } from "react";
import { ApiError, api, threadPath } from "../api/client.js";
import type { Json } from "../api/wire.js";
import {
  applyRunEvent,
  emptyRunView,
  finished,
  type RunView,
  withUserMessage,
} from "./run-view.js";

/** What starts a run on a thread: new input, an answer to an interrupt, or a fork. */
export interface RunRequest {
  readonly assistantId: string;
  readonly threadId: string;
  /** A user's message, sent as `{ messages: [{ role: "user", content }] }`. */
  readonly message?: string;
  /** Answers pending interrupts (`command.resume`). */
  readonly resume?: Json;
  /** Time travel: run from this checkpoint (a fork when it is not the latest). */
  readonly checkpointId?: string;
}

/** The message the studio starts a run with, as every served assistant reads it. */
export const userInput = (message: string) => ({ messages: [{ role: "user", content: message }] });

/**
 * Streams runs (`POST /threads/{id}/runs/stream`, stream modes `events` and `values`) into a
 * {@link RunView}: text as it is written, tool calls and their results, graph nodes as they
 * start and end, interrupts, and the state at the end.
 */
export function useRun() {
  const [view, setView] = useState<RunView | undefined>(undefined);
  const controller = useRef<AbortController | undefined>(undefined);
  useEffect(() => () => controller.current?.abort(), []);

  const start = useCallback(async (request: RunRequest, keepTranscript = true) => {
    controller.current?.abort();
    const abort = new AbortController();
    controller.current = abort;
    setView((previous) => {
      const base = emptyRunView(keepTranscript ? (previous?.transcript ?? []) : []);
      return request.message === undefined ? base : withUserMessage(base, request.message);
    });
    const body = {
      assistant_id: request.assistantId,
      stream_mode: ["events", "values"],
      ...(request.message === undefined ? {} : { input: userInput(request.message) }),
      ...(request.resume === undefined ? {} : { command: { resume: request.resume } }),
      ...(request.checkpointId === undefined ? {} : { checkpoint_id: request.checkpointId }),
    };
    try {
      await api.stream(
        threadPath(request.threadId, "/runs/stream"),
        body,
        (event) => setView((current) => applyRunEvent(current ?? emptyRunView(), event)),
        abort.signal,
      );
      setView((current) => current && finished(current));
    } catch (error) {
      if (abort.signal.aborted) return;
      const failure = ApiError.isInstance(error)
        ? { type: error.type, message: error.message }
        : { type: "Error", message: error instanceof Error ? error.message : String(error) };
      setView((current) => ({
        ...(current ?? emptyRunView()),
        phase: "error",
        transcript: [
          ...(current?.transcript ?? []),
          { kind: "error", key: `failure-${Date.now()}`, ...failure },
        ],
      }));
    }
  }, []);

  const reset = useCallback(() => {
    controller.current?.abort();
    setView(undefined);
  }, []);

  return { view, start, reset };
}
