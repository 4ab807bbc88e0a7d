/** The message of anything thrown: an `Error`'s message, or the value as text (`throw "x"`). */
export function errorMessage(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
