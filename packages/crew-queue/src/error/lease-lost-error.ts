import { FrameworkError } from "@framework/core";

const name = "LeaseLostError";
const marker = `framework.error.${name}`;
const symbol = Symbol.for(marker);

/**
 * The worker lost its lease on a run while running it (it was paused or cut off long enough
 * for another worker to take the run over): its checkpoints were refused and it stops; the
 * new holder finishes the run.
 */
export class LeaseLostError extends FrameworkError {
  private readonly [symbol] = true;

  /** The run. */
  declare readonly runId: string;
  /** The lease this worker held, `undefined` when it held none (the run had ended here). */
  declare readonly leaseEpoch: number | undefined;

  constructor(options: { runId: string; leaseEpoch?: number; cause?: unknown }) {
    const held = options.leaseEpoch === undefined ? "" : ` (epoch ${options.leaseEpoch})`;
    super({
      name,
      message: `Lost the lease on run ${options.runId}${held}: this worker may no longer write it`,
      cause: options.cause,
      fields: { runId: options.runId, leaseEpoch: options.leaseEpoch },
    });
  }

  static override isInstance(error: unknown): error is LeaseLostError {
    return FrameworkError.hasMarker(error, marker);
  }
}
