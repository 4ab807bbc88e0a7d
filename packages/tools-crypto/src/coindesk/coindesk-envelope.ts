/**
 * The `Err.message` of a CoinDesk data API answer (`{ Data, Err: { type, message,
 * other_info } }`), or `undefined` when the body carries none.
 */
export function coinDeskErrMessage(body: unknown): string | undefined {
  if (typeof body !== "object" || body === null || !("Err" in body)) return undefined;
  const err = body.Err;
  if (typeof err !== "object" || err === null || !("message" in err)) return undefined;
  return typeof err.message === "string" && err.message ? err.message : undefined;
}
