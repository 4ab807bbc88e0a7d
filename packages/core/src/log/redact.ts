const secretNamePattern = /(?:API_KEY|_KEY|SECRET|TOKEN|PASSWORD)$/i;
const minimumSecretLength = 6;
// Bounded: a card per request registers a token per request; the oldest are forgotten first.
const maximumRegistered = 1024;
const registered = new Set<string>();

/**
 * Marks a value as secret: from now on it is replaced by `[REDACTED]` in every log line and
 * framework error message. Values of environment variables whose names end in `_KEY`,
 * `SECRET`, `TOKEN` or `PASSWORD` are treated as secret without registration.
 */
export function registerSecret(value: string | undefined): void {
  if (!value || value.length < minimumSecretLength) return;
  registered.delete(value);
  registered.add(value);
  if (registered.size > maximumRegistered) {
    registered.delete(registered.values().next().value as string);
  }
}

function currentSecrets(): string[] {
  const fromEnv = Object.entries(process.env)
    .filter(
      ([name, value]) =>
        secretNamePattern.test(name) && value && value.length >= minimumSecretLength,
    )
    .map(([, value]) => value as string);
  // Longest first, so a secret that contains another is replaced whole.
  return [...new Set([...registered, ...fromEnv])].sort((a, b) => b.length - a.length);
}

/** Replaces every known secret in `text` with `[REDACTED]`. */
export function redactSecrets(text: string): string {
  let result = text;
  for (const secret of currentSecrets()) {
    if (result.includes(secret)) result = result.split(secret).join("[REDACTED]");
  }
  return result;
}
