/**
 * One line describing a failure for a log message. Node's fetch reports every network
 * failure as "fetch failed" and keeps the reason in `cause`, so the cause is appended.
 */
export function describeError(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  const { cause } = error;
  const reason =
    cause instanceof Error ? cause.message || (cause as Error & { code?: string }).code : undefined;
  return reason && !error.message.includes(reason) ? `${error.message} (${reason})` : error.message;
}
