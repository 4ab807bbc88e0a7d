import type { Logger } from "@framework/core";
import type { AssistantRegistry } from "../assistant/assistant-registry.js";
import type { ServerUser } from "../auth/server-auth.js";
import type { RunEventLog } from "../run/run-event-log.js";
import type { RunManager } from "../run/run-manager.js";
import type { ServerStore } from "../store/server-store.js";
import type { OpenStreams } from "./run-event-stream.js";

/** What the routes share: the server's parts and settings. */
export interface ServerContext {
  readonly store: ServerStore;
  readonly log: RunEventLog;
  readonly runs: RunManager;
  readonly assistants: AssistantRegistry;
  readonly streams: OpenStreams;
  readonly logger: Logger;
  /** When the server started: the assistants' creation time. */
  readonly startedAt: string;
  readonly keepAliveMs: number;
  readonly bodyLimitBytes: number;
}

/** Hono's environment of every route: the authenticated user. */
export interface ServerEnv {
  Variables: { user: ServerUser };
}
