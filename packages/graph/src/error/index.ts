export { CheckpointConflictError } from "./checkpoint-conflict-error.js";
export { CheckpointNotFoundError } from "./checkpoint-not-found-error.js";
export { CorruptThreadError } from "./corrupt-thread-error.js";
export {
  type GraphIssue,
  type GraphIssueCode,
  GraphValidationError,
} from "./graph-validation-error.js";
export { InterruptNotFoundError } from "./interrupt-not-found-error.js";
export { NodeExecutionError } from "./node-execution-error.js";
export { NodeInterrupt } from "./node-interrupt.js";
export { NotInterruptedError } from "./not-interrupted-error.js";
export { StateConflictError } from "./state-conflict-error.js";
export { type StateMutation, StateMutationError } from "./state-mutation-error.js";
export { StateValidationError } from "./state-validation-error.js";
export { StepLimitError } from "./step-limit-error.js";
export { UnknownNodeError } from "./unknown-node-error.js";
