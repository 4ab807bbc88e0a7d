export {
  CHECKPOINT_VERSION,
  type Checkpoint,
  type CheckpointError,
  type CheckpointFrontier,
  type CheckpointInterrupt,
  type CheckpointSnapshot,
  type CheckpointSource,
  type CheckpointV1,
  type FrontierDelta,
  type RunStatus,
  type StoredCheckpoint,
} from "./checkpoint.js";
export type { Checkpointer, ListCheckpointsOptions } from "./checkpointer.js";
export {
  type CheckpointPageReader,
  type CheckpointRow,
  listInPages,
} from "./list-in-pages.js";
export { MemorySaver } from "./memory-saver.js";
export { DEFAULT_SNAPSHOT_RATIO } from "./snapshot-policy.js";
export type { StateSnapshot } from "./state-snapshot.js";
