import { FrameworkError } from "@framework/core";

const name = "StudioNotBuiltError";
const marker = `framework.error.${name}`;
const symbol = Symbol.for(marker);

/**
 * The studio is on but its page is missing from the package: a copy of `@framework/server`
 * built without its studio (its `build` script builds both). Answered 503.
 */
export class StudioNotBuiltError extends FrameworkError {
  private readonly [symbol] = true;

  /** The HTTP status this failure is answered with. */
  declare readonly status: 503;
  /** Where the page was looked for. */
  declare readonly searched: readonly string[];

  constructor(options: { searched: readonly string[] }) {
    super({
      name,
      message: `The studio's page is not built (looked in ${options.searched.join(", ")}): run the build of @framework/server`,
      fields: { status: 503, searched: options.searched },
    });
  }

  static override isInstance(error: unknown): error is StudioNotBuiltError {
    return FrameworkError.hasMarker(error, marker);
  }
}
