export type { Checkpoint, CheckpointError, CheckpointFrontier, RunStatus } from "./checkpoint.js";
export type { Checkpointer, ListCheckpointsOptions } from "./checkpointer.js";
export { MemorySaver } from "./memory-saver.js";
export type { StateSnapshot } from "./state-snapshot.js";
