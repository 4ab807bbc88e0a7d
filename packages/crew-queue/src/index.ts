export type { Crew, CrewFactory, CrewFactoryContext } from "./crew-factory.js";
export {
  CrewQueue,
  type CrewQueueOptions,
  type EventsOptions,
  type QueueStats,
  type ResultOptions,
  type SubmitOptions,
  type SubmittedRun,
} from "./crew-queue.js";
export { CrewWorker, type CrewWorkerOptions } from "./crew-worker.js";
export {
  LeaseLostError,
  RunCancelledError,
  RunFailedError,
  RunNotFoundError,
  RunNotResumableError,
  RunTimeoutError,
  ThreadBusyError,
  UnknownCrewError,
} from "./error/index.js";
export {
  type CrewQueueConnection,
  DEFAULT_QUEUE_NAME,
  jobIdOf,
} from "./queue-connection.js";
export type { RunEvent } from "./run/run-event.js";
export type { RunInput, RunRecord, RunStatus } from "./run/run-record.js";
export type { SweepResult } from "./run/sweep-result.js";
