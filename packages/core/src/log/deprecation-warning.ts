const warned = new Set<string>();

/**
 * Tells the process once that a deprecated name was used: a Node `DeprecationWarning` (on
 * stderr unless `--no-deprecation`), so a program using the old name keeps working and its
 * owner learns the new one without a log line per construction. `code` identifies the
 * deprecation (e.g. `FRAMEWORK_CREW_QUEUE_SAVER`): each code warns at most once per process.
 */
export function warnDeprecated(code: string, message: string): void {
  if (warned.has(code)) return;
  warned.add(code);
  process.emitWarning(message, { type: "DeprecationWarning", code });
}
