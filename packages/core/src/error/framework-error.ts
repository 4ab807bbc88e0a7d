const marker = "framework.error";
const symbol = Symbol.for(marker);

/** Options shared by every framework error. */
export interface FrameworkErrorOptions {
  /** The error class name, e.g. `"AuthenticationError"`. */
  name: string;
  /** A message a person can act on. Never contains a secret. */
  message: string;
  /** The underlying failure, if any. */
  cause?: unknown;
}

/**
 * Base class of every error the framework throws. Each failure kind is a subclass with a
 * stable `name`, structured fields, and a static `isInstance` that works across copies of
 * the package (it checks a global symbol, not the prototype chain).
 */
export class FrameworkError extends Error {
  private readonly [symbol] = true;

  override readonly name: string;
  override readonly cause?: unknown;

  constructor({ name, message, cause }: FrameworkErrorOptions) {
    super(message);
    this.name = name;
    this.cause = cause;
  }

  /** True when `error` is any framework error. */
  static isInstance(error: unknown): error is FrameworkError {
    return FrameworkError.hasMarker(error, marker);
  }

  /** Checks the global-symbol marker a subclass sets on its instances. */
  protected static hasMarker(error: unknown, markerName: string): boolean {
    const markerSymbol = Symbol.for(markerName);
    return (
      error != null &&
      typeof error === "object" &&
      markerSymbol in error &&
      (error as Record<symbol, unknown>)[markerSymbol] === true
    );
  }
}
