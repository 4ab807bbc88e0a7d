import { redactSecrets } from "../log/redact.js";

const marker = "framework.error";
const symbol = Symbol.for(marker);

/** Options shared by every framework error. */
export interface FrameworkErrorOptions {
  /** The error class name, e.g. `"AuthenticationError"`. */
  name: string;
  /** A message a person can act on. Secrets in it are redacted. */
  message: string;
  /**
   * The underlying failure, if any. Secrets anywhere in its chain are redacted in place (an
   * error that cannot be changed is replaced by a redacted copy).
   */
  cause?: unknown;
  /**
   * The subclass's structured fields, set on the error with secrets redacted from every string
   * in them. A subclass declares them with `declare readonly`, so its own field definitions do
   * not overwrite them.
   */
  fields?: Readonly<Record<string, unknown>>;
}

// A cause chain deeper than this is not one a person reads; it is left as it is.
const maxCauseDepth = 16;

/** `value` with every string inside redacted; plain objects and arrays are copied. */
function redactValue(value: unknown, depth = 0): unknown {
  if (typeof value === "string") return redactSecrets(value);
  if (value === null || typeof value !== "object" || depth >= maxCauseDepth) return value;
  if (Array.isArray(value)) return value.map((item) => redactValue(item, depth + 1));
  const prototype = Object.getPrototypeOf(value);
  if (prototype !== Object.prototype && prototype !== null) return value;
  return Object.fromEntries(
    Object.entries(value).map(([key, item]) => [key, redactValue(item, depth + 1)]),
  );
}

/**
 * Redacts an error of a cause chain where it stands (its message, stack and string fields),
 * so that whoever inspects the chain sees no secret. An error that cannot be changed (frozen)
 * is replaced by a plain `Error` holding its redacted message and stack.
 */
function redactCause(cause: unknown, depth: number, seen: Set<object>): unknown {
  if (!(cause instanceof Error)) return redactValue(cause);
  if (depth >= maxCauseDepth || seen.has(cause)) return cause;
  seen.add(cause);
  let target = cause;
  if (!Object.isExtensible(cause)) {
    target = new Error(cause.message);
    target.name = cause.name;
    target.stack = cause.stack;
    if (cause.cause !== undefined) target.cause = cause.cause;
  }
  for (const key of [...Object.getOwnPropertyNames(target), "stack"]) {
    const descriptor = Object.getOwnPropertyDescriptor(target, key);
    if (descriptor !== undefined && !("value" in descriptor)) continue;
    const value = key === "stack" ? target.stack : descriptor?.value;
    const redacted =
      key === "cause"
        ? redactCause(value, depth + 1, seen)
        : key === "errors" && Array.isArray(value)
          ? value.map((item) => redactCause(item, depth + 1, seen))
          : redactValue(value);
    if (redacted === value || (key === "errors" && sameItems(value, redacted))) continue;
    try {
      Object.defineProperty(target, key, { value: redacted });
    } catch {
      // A non-configurable property: nothing to do but leave it.
    }
  }
  return target;
}

function sameItems(before: unknown, after: unknown): boolean {
  return (
    Array.isArray(before) &&
    Array.isArray(after) &&
    before.every((item, index) => item === after[index])
  );
}

/**
 * Base class of every error the framework throws. Each failure kind is a subclass with a
 * stable `name`, structured fields, and a static `isInstance` that works across copies of
 * the package (it checks a global symbol, not the prototype chain). No secret survives in
 * one: its message, its fields and its whole `cause` chain are redacted when it is made.
 */
export class FrameworkError extends Error {
  private readonly [symbol] = true;

  override readonly name: string;
  override readonly cause?: unknown;

  constructor({ name, message, cause, fields }: FrameworkErrorOptions) {
    super(redactSecrets(message));
    this.name = name;
    this.cause = cause === undefined ? undefined : redactCause(cause, 0, new Set());
    if (this.stack !== undefined) this.stack = redactSecrets(this.stack);
    for (const [key, value] of Object.entries(fields ?? {})) {
      if (value !== undefined) {
        Object.defineProperty(this, key, {
          value: redactValue(value),
          enumerable: true,
          writable: false,
          configurable: true,
        });
      }
    }
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
