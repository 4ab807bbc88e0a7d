import type { RunStatus } from "./run-record.js";

/**
 * What `queue.events(runId)` yields while a run goes on: its nodes starting and ending
 * (`attempt` tells a takeover apart), and each status change, the last one final. Every
 * event is logged with `seq`, its number in the run's log (from 1), from which
 * `queue.events(runId, { after })` replays; the status a follower is told on subscribing
 * without `after` describes the run's row and has none.
 */
export type RunEvent = RunEventOf & {
  /** The event's number in the run's log, from 1, in the order the events committed. */
  readonly seq?: number;
};

type RunEventOf =
  | {
      readonly type: "node_start";
      readonly runId: string;
      readonly node: string;
      readonly step: number;
      readonly visit: number;
      readonly attempt: number;
    }
  | {
      readonly type: "node_end";
      readonly runId: string;
      readonly node: string;
      readonly step: number;
      readonly attempt: number;
    }
  | {
      readonly type: "status";
      readonly runId: string;
      readonly status: RunStatus;
      /** When the change committed (ISO 8601, the database's clock): for run latency metrics. */
      readonly at: string;
      /** The worker, for `running`. */
      readonly worker?: string;
      readonly attempt?: number;
    };
