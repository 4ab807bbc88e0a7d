const name = "StateMutationError";
const marker = `framework.error.${name}`;
const frameworkMarker = Symbol.for("framework.error");
const symbol = Symbol.for(marker);

// The engine's messages for a write to a frozen object, with the property they name.
const frozenWritePatterns = [
  /^Cannot assign to read only property '(.*)' of /,
  /^Cannot add property (.*), object is not extensible$/,
  /^Cannot delete property '(.*)' of /,
  /^Cannot define property (.*), object is not extensible$/,
  /^Cannot redefine property: (.*)$/,
];

/** What a node tried to change in the frozen state. */
export interface StateMutation {
  /** The state key whose value was written to: the first, in declaration order, that fits. */
  key: string;
  /** The property written, as the engine reported it. */
  property: string;
}

function holds(value: unknown, property: string, adding: boolean, depth: number): boolean {
  if (value === null || typeof value !== "object" || depth > 64) return false;
  // Adding an index can only be an array growing; adding a name, an object gaining a field.
  const fits = adding
    ? Array.isArray(value)
      ? String(value.length) === property
      : !/^\d+$/.test(property) && !Object.hasOwn(value, property)
    : Object.hasOwn(value, property);
  if (fits) return true;
  return Object.values(value).some((child) => holds(child, property, adding, depth + 1));
}

/**
 * Recognises the engine's `TypeError` for a write to frozen state and finds the state key it
 * touched: a top-level key named by the property, else the first key whose value holds an
 * object the write fits. `undefined` when `error` is not such a write, or one to an object
 * the state does not hold (the node's own frozen data), which is left as the node threw it.
 */
export function describeStateMutation(
  error: unknown,
  state: Readonly<Record<string, unknown>>,
  keys: readonly string[],
): StateMutation | undefined {
  if (!(error instanceof TypeError) || StateMutationError.isInstance(error)) return undefined;
  const pattern = frozenWritePatterns.find((candidate) => candidate.test(error.message));
  const property = pattern?.exec(error.message)?.[1];
  if (property === undefined) return undefined;
  const adding =
    !error.message.startsWith("Cannot assign") && !error.message.startsWith("Cannot delete");
  if (keys.includes(property)) return { key: property, property };
  const key = keys.find((candidate) => holds(state[candidate], property, adding, 0));
  return key === undefined ? undefined : { key, property };
}

/**
 * A node wrote to the state it was handed, which is deeply frozen: state changes only through
 * the updates nodes return, which are validated and checkpointed. It is a `TypeError`, as the
 * engine's own error for the write was, and also a framework error (`FrameworkError.isInstance`
 * is true; its message and fields hold no secret, only names).
 */
export class StateMutationError extends TypeError {
  private readonly [frameworkMarker] = true;
  private readonly [symbol] = true;

  override readonly name = name;
  /** The node that wrote. */
  readonly node: string;
  /** The state key whose value it wrote to. */
  readonly key: string;
  /** The property written, as the engine reported it. */
  readonly property: string;

  constructor({ node, key, property, cause }: StateMutation & { node: string; cause?: unknown }) {
    super(
      `Node "${node}" tried to change state key "${key}" (property ${JSON.stringify(property)}) in place. State is read-only: return an update instead.`,
      { cause },
    );
    this.node = node;
    this.key = key;
    this.property = property;
  }

  static isInstance(error: unknown): error is StateMutationError {
    return (
      error != null &&
      typeof error === "object" &&
      (error as Record<symbol, unknown>)[symbol] === true
    );
  }
}
