import type { RunRecord } from "../store/server-store.js";
import type { RunEnd } from "./run-end.js";

/**
 * Hears the life of the runs this process starts and ends: the server's webhooks and metrics. Called synchronously, so an observer hands slow work off; one that throws is
 * logged and does not disturb the run.
 */
export interface RunObserver {
  /** A run started executing here (again, after a restart, with `attempt` above 1). */
  runStarted?(run: RunRecord): void;
  /**
   * A run ended here: `success`, `error`, `interrupted` or `timeout`. A run rolled back (and
   * so deleted) does not end; nor does one left to continue after a shutdown.
   */
  runEnded?(end: RunEnd): void;
}
