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
  /** The lease this worker held. */
  declare readonly leaseEpoch: number;

  constructor(options: { runId: string; leaseEpoch: number; cause?: unknown }) {
    super({
      name,
      message: `Lost the lease on run ${options.runId} (epoch ${options.leaseEpoch}): another worker holds it now`,
      cause: options.cause,
      fields: { runId: options.runId, leaseEpoch: options.leaseEpoch },
    });
  }

  static override isInstance(error: unknown): error is LeaseLostError {
    return FrameworkError.hasMarker(error, marker);
  }
}
