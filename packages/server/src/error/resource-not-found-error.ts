import { FrameworkError } from "@framework/core";
import { capitalized, type ServerResource } from "./server-resource.js";

const name = "ResourceNotFoundError";
const marker = `framework.error.${name}`;
const symbol = Symbol.for(marker);

/**
 * The assistant, thread, run, checkpoint or chat named in a request does not exist, or belongs
 * to another user: both answer the same, so a request never learns what others have.
 */
export class ResourceNotFoundError extends FrameworkError {
  private readonly [symbol] = true;

  /** The HTTP status this failure is answered with. */
  declare readonly status: 404;
  /** What was looked up. */
  declare readonly resource: ServerResource;
  /** The id it was looked up by. */
  declare readonly id: string;

  constructor(options: { resource: ServerResource; id: string }) {
    super({
      name,
      message: `${capitalized(options.resource)} ${options.id} not found`,
      fields: { status: 404, resource: options.resource, id: options.id },
    });
  }

  static override isInstance(error: unknown): error is ResourceNotFoundError {
    return FrameworkError.hasMarker(error, marker);
  }
}
