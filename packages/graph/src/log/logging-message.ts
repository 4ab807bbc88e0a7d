import { getDefaultLogger, type Logger } from "@framework/core";

type Method<This, Args extends unknown[], R> = (this: This, ...args: Args) => R;

function report(instance: unknown, fallbackName: string, result: unknown): void {
  const owner = instance as { logger?: Logger; constructor?: { name?: string } } | undefined;
  const logger = owner?.logger ?? getDefaultLogger();
  // A wrapped function called without an instance is named after itself.
  const className = owner?.constructor?.name || fallbackName || "Node";
  logger.info(`============ ${className} Response ============`);
  logger.info(JSON.stringify(result, null, 2) ?? String(result));
}

/**
 * Logs what a node's `exec` returns: the banner `============ <NodeClass> Response ============`
 * then the returned dict as indented JSON, through the instance's `logger` (or the default
 * logger). `<NodeClass>` is the instance's class name. Use it as a standard method decorator
 * or as a plain wrapper; the wrapped method's result is returned unchanged.
 *
 * @example
 * class MarketDataProvider extends AgentNode {
 *   @loggingMessage
 *   async exec(state: TradingState) { ... }
 * }
 * // or, without decorators:
 * MarketDataProvider.prototype.exec = loggingMessage(MarketDataProvider.prototype.exec);
 */
export function loggingMessage<This, Args extends unknown[], R>(
  method: Method<This, Args, R>,
  _context?: ClassMethodDecoratorContext<This, Method<This, Args, R>>,
): Method<This, Args, R> {
  return function (this: This, ...args: Args): R {
    const result = method.apply(this, args);
    if (result instanceof Promise) {
      return result.then((value: unknown) => {
        report(this, method.name, value);
        return value;
      }) as R;
    }
    report(this, method.name, result);
    return result;
  };
}
