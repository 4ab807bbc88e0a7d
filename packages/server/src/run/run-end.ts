import type { JsonObject, RunRecord } from "../store/server-store.js";

/** How a run ended, as the process that executed it saw it. */
export interface RunEnd {
  /** The run as it ended. */
  readonly run: RunRecord;
  /** The thread's values at the end, as the wire shows them, when this process knows them. */
  readonly values?: JsonObject;
}
