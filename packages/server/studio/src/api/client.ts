import { ServerSentEventParser } from "./sse.js";
import { tokenStore } from "./token.js";
import type { RunStreamEvent } from "./wire.js";

/** An error answer of the server, as it typed it: `{ error: { type, message, issues? } }`. */
export class ApiError extends Error {
  override readonly name = "ApiError";
  constructor(
    readonly status: number,
    readonly type: string,
    message: string,
    readonly issues: readonly { path: (string | number)[]; message: string }[] = [],
  ) {
    super(message);
  }

  static isInstance(error: unknown): error is ApiError {
    return error instanceof ApiError;
  }
}

type AuthListener = (needsToken: boolean) => void;
const authListeners = new Set<AuthListener>();

/** Called with `true` when the server answers 401 (a token is needed), `false` once one works. */
export function onAuthChange(listener: AuthListener): () => void {
  authListeners.add(listener);
  return () => authListeners.delete(listener);
}

function headers(json: boolean): Headers {
  const result = new Headers({ accept: json ? "application/json" : "text/event-stream" });
  if (json) result.set("content-type", "application/json");
  const token = tokenStore.get();
  if (token) result.set("authorization", `Bearer ${token}`);
  return result;
}

async function failure(response: Response): Promise<ApiError> {
  const text = await response.text().catch(() => "");
  try {
    const { error } = JSON.parse(text) as {
      error: { type: string; message: string; issues?: ApiError["issues"] };
    };
    return new ApiError(response.status, error.type, error.message, error.issues ?? []);
  } catch {
    return new ApiError(response.status, "HttpError", text || response.statusText);
  }
}

async function send(method: string, path: string, body?: unknown, signal?: AbortSignal) {
  let response: Response;
  try {
    response = await fetch(path, {
      method,
      headers: headers(true),
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      ...(signal ? { signal } : {}),
    });
  } catch (error) {
    if (signal?.aborted) throw error;
    throw new ApiError(0, "NetworkError", "The server cannot be reached. Is it still running?");
  }
  if (response.status === 401) for (const listener of authListeners) listener(true);
  if (!response.ok) throw await failure(response);
  return response;
}

/** The server's API, same origin, authenticated with the session's token when there is one. */
export const api = {
  async get<T>(path: string, signal?: AbortSignal): Promise<T> {
    return (await (await send("GET", path, undefined, signal)).json()) as T;
  },
  async post<T>(path: string, body: unknown, signal?: AbortSignal): Promise<T> {
    return (await (await send("POST", path, body, signal)).json()) as T;
  },

  /**
   * Starts a run that streams (`POST …/runs/stream`) and hands each event to `onEvent` as it
   * arrives. Settles when the stream ends; rejects with an {@link ApiError} when the server
   * refuses the run.
   */
  async stream(
    path: string,
    body: unknown,
    onEvent: (event: RunStreamEvent) => void,
    signal?: AbortSignal,
  ): Promise<void> {
    const response = await send("POST", path, body, signal);
    if (!response.body) return;
    const parser = new ServerSentEventParser();
    const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
    for (;;) {
      const { value, done } = await reader.read();
      if (done) return;
      for (const event of parser.push(value)) {
        onEvent({ event: event.event, data: JSON.parse(event.data) } as RunStreamEvent);
      }
    }
  },

  /** Checks a token against the server; keeps it when it works. */
  async tryToken(token: string): Promise<boolean> {
    const response = await fetch("/assistants/search", {
      method: "POST",
      headers: { "content-type": "application/json", authorization: `Bearer ${token}` },
      body: JSON.stringify({ limit: 1 }),
    });
    if (!response.ok) return false;
    tokenStore.set(token);
    for (const listener of authListeners) listener(false);
    return true;
  },
};

/** `/threads/{id}/…` with the id escaped. */
export const threadPath = (threadId: string, rest = "") =>
  `/threads/${encodeURIComponent(threadId)}${rest}`;
