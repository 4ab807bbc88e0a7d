export type {
  Checkpoint,
  CheckpointError,
  CheckpointFrontier,
  CheckpointInterrupt,
  CheckpointSnapshot,
  CheckpointSource,
  CheckpointV1,
  FrontierDelta,
  PendingInterrupt,
  RunStatus,
  StoredCheckpoint,
} from "./checkpoint.js";
export { CHECKPOINT_VERSION } from "./checkpoint-format.js";
export type { Checkpointer, ListCheckpointsOptions } from "./checkpointer.js";
export {
  type CheckpointPageReader,
  type CheckpointRow,
  listInPages,
} from "./list-in-pages.js";
export { MemorySaver } from "./memory-saver.js";
export { DEFAULT_SNAPSHOT_RATIO } from "./snapshot-policy.js";
export type { StateCheckpoint, StateSnapshot } from "./state-snapshot.js";
