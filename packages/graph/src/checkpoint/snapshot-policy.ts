/**
 * The default of `snapshotRatio`: a snapshot is written once the checkpoints since the
 * previous one weigh twice as much as it does.
 */
export const DEFAULT_SNAPSHOT_RATIO = 2;

/** When a checkpoint also holds a snapshot; built from the compile options. */
export interface SnapshotPolicy {
  /** Bytes of checkpoints after a snapshot, as a multiple of its own bytes, that make the next one due. */
  readonly ratio: number;
  /** Checkpoints after a snapshot that make the next one due whatever their bytes. */
  readonly every: number;
}

/** The thread's newest snapshot, as a run about to write a checkpoint knows it. */
export interface SnapshotMark {
  readonly seq: number;
  /** Estimated JSON bytes of the snapshot's checkpoint. */
  readonly bytes: number;
  /** Estimated JSON bytes of the checkpoints written after it. */
  readonly bytesSince: number;
}

/**
 * Whether the checkpoint at `seq`, weighing `bytes` without a snapshot, must hold one.
 * Weighing by bytes rather than counting checkpoints keeps both costs proportional: a read
 * parses less than `1 + ratio` times one snapshot's bytes (as reading a full-state
 * checkpoint would, give or take that factor), and snapshots add at most `1 / ratio` to
 * the bytes the thread's changes take. A fixed count instead makes a run over a wide state
 * store `steps × width / count` snapshot bytes, quadratic in the run, and makes a read of a
 * small state fold far more checkpoints than one snapshot is worth.
 */
export function snapshotDue(
  mark: SnapshotMark | undefined,
  seq: number,
  bytes: number,
  policy: SnapshotPolicy,
): boolean {
  if (mark === undefined) return true;
  return seq - mark.seq >= policy.every || mark.bytesSince + bytes >= policy.ratio * mark.bytes;
}
