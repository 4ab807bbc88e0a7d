import type { MiddlewareHandler } from "hono";
import { bodyLimit } from "hono/body-limit";
import { RequestTooLargeError } from "../error/request-too-large-error.js";

/**
 * Refuses a request body over `limitBytes` with `RequestTooLargeError` (413). A body that
 * states its length is judged by that header alone; only a body streamed without one is
 * counted as it is read (Hono's `bodyLimit`), since reading the raw body makes the Node
 * adapter build a whole Web `Request` for every call, which costs more than the rest of a
 * small request.
 */
export function bodySizeLimit(limitBytes: number): MiddlewareHandler {
  const counting = bodyLimit({
    maxSize: limitBytes,
    onError: () => {
      throw new RequestTooLargeError({ limitBytes });
    },
  });
  return async (c, next) => {
    const length = c.req.header("content-length");
    if (length !== undefined && c.req.header("transfer-encoding") === undefined) {
      if (Number(length) > limitBytes) throw new RequestTooLargeError({ limitBytes });
      return next();
    }
    if (c.req.method === "GET" || c.req.method === "HEAD") return next();
    return counting(c, next);
  };
}
