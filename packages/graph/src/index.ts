export type {
  Checkpoint,
  CheckpointError,
  CheckpointFrontier,
  RunStatus,
} from "./checkpoint/checkpoint.js";
export type { Checkpointer, ListCheckpointsOptions } from "./checkpoint/checkpointer.js";
export { MemorySaver } from "./checkpoint/memory-saver.js";
export type { StateSnapshot } from "./checkpoint/state-snapshot.js";
export { AgentNode, type AgentNodeOptions } from "./crew/agent-node.js";
export { CrewAgent, type CrewAgentOptions, type CrewInvokeOptions } from "./crew/crew-agent.js";
export { CheckpointConflictError } from "./error/checkpoint-conflict-error.js";
export {
  type GraphIssue,
  type GraphIssueCode,
  GraphValidationError,
} from "./error/graph-validation-error.js";
export { NodeExecutionError } from "./error/node-execution-error.js";
export { StateConflictError } from "./error/state-conflict-error.js";
export { StateValidationError } from "./error/state-validation-error.js";
export { StepLimitError } from "./error/step-limit-error.js";
export {
  CompiledGraph,
  type CompileOptions,
  DEFAULT_STEP_LIMIT,
  type StateHistoryOptions,
} from "./graph/compiled-graph.js";
export { type AnyGraphNode, type Edge, EdgeChain, type NodeRef } from "./graph/edge-chain.js";
export {
  END,
  END_NAME,
  EndEndpoint,
  START,
  START_NAME,
  StartEndpoint,
} from "./graph/endpoints.js";
export { FlowStateGraph } from "./graph/flow-state-graph.js";
export {
  DEFAULT_THREAD_ID,
  type GraphConfig,
  type GraphConfigurable,
} from "./graph/graph-config.js";
export type { PathMap, RouteResult, Router, RouterContext } from "./graph/router.js";
export { loggingMessage } from "./log/logging-message.js";
export { FunctionNode, type NodeFunction, node } from "./node/function-node.js";
export { GraphNode, type NodeContext, type NodeResult } from "./node/graph-node.js";
export { EventChannel } from "./run/event-channel.js";
export type { GraphEvent, NodeEndEvent, NodeStartEvent, RunDoneEvent } from "./run/graph-event.js";
export { appendReducer } from "./state/append-reducer.js";
export { type DefaultReducerUpdate, type Reducer, reducer } from "./state/reducer.js";
export {
  defineState,
  StateDefinition,
  type StateOf,
  type StateRecord,
  type StateShape,
  type StateUpdate,
  type StateValues,
  type UpdateOf,
} from "./state/state-definition.js";
