import type { JsonObject, MultitaskStrategy, RunRecord } from "../store/server-store.js";

/** A request to start a run, in the server's terms (the routes translate the wire's). */
export interface RunCreation {
  /** The assistant's id or the name it is served under. */
  readonly assistantId: string;
  readonly input?: unknown;
  /** `command.resume`: answers the thread's pending interrupt. */
  readonly resume?: unknown;
  readonly config?: JsonObject;
  readonly metadata?: JsonObject;
  readonly streamMode: readonly string[];
  readonly multitaskStrategy: MultitaskStrategy;
  readonly onDisconnect: "continue" | "cancel";
  readonly checkpointId?: string | null;
  /** For a thread id that names no thread: create it, or answer 404. Default `reject`. */
  readonly ifNotExists?: "create" | "reject";
  /** A thread-less run keeps its thread (`keep`) or not (`delete`, the default). */
  readonly onCompletion?: "delete" | "keep";
  /** POSTed to when the run ends (the protocol's `webhook`). */
  readonly webhook?: string;
}

/** What creates runs: the server's run manager, as a cron's ticks see it. */
export interface RunCreator {
  /** Creates a run on `owner`'s thread `threadId`, or on a new thread when it is undefined. */
  create(owner: string, threadId: string | undefined, creation: RunCreation): Promise<RunRecord>;
}
