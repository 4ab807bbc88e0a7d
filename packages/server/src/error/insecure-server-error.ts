import { FrameworkError } from "@framework/core";

const name = "InsecureServerError";
const marker = `framework.error.${name}`;
const symbol = Symbol.for(marker);

/**
 * A server without `auth` was asked to listen beyond this machine: anyone who can reach it
 * would act as its one user. Give it `auth`, or set `insecure: true` to mean it.
 */
export class InsecureServerError extends FrameworkError {
  private readonly [symbol] = true;

  /** The address it was asked to bind. */
  declare readonly host: string;

  constructor(options: { host: string }) {
    super({
      name,
      message: `Refusing to serve ${options.host} without auth: give createServer an auth option, listen on 127.0.0.1, or pass insecure: true`,
      fields: { host: options.host },
    });
  }

  static override isInstance(error: unknown): error is InsecureServerError {
    return FrameworkError.hasMarker(error, marker);
  }
}
