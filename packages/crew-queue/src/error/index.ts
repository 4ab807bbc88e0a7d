export { LeaseLostError } from "./lease-lost-error.js";
export { RunCancelledError } from "./run-cancelled-error.js";
export { RunFailedError } from "./run-failed-error.js";
export { RunNotFoundError } from "./run-not-found-error.js";
export { RunNotResumableError } from "./run-not-resumable-error.js";
export { RunTimeoutError } from "./run-timeout-error.js";
export { ThreadBusyError } from "./thread-busy-error.js";
export { UnknownCrewError } from "./unknown-crew-error.js";
