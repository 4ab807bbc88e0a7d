const secretNamePattern = /(?:_KEY|SECRET|TOKEN|PASSWORD)$/i;
const minimumSecretLength = 6;
// Bounded: a card per request registers a token per request; the oldest are forgotten first.
const maximumRegistered = 1024;
const registered = new Set<string>();
// Bumped whenever the registered set changes, so a cached union of secrets knows it is stale.
let registeredVersion = 0;
let lastScan: { registeredVersion: number; fromEnv: string[]; sorted: string[] } | undefined;

/**
 * Marks a value as secret: from now on it is replaced by `[REDACTED]` in every log line and
 * framework error message. Values of environment variables whose names end in `_KEY`,
 * `SECRET`, `TOKEN` or `PASSWORD` are treated as secret without registration.
 */
export function registerSecret(value: string | undefined): void {
  if (!value || value.length < minimumSecretLength) return;
  const known = registered.delete(value);
  registered.add(value);
  // Re-registering a known value only refreshes its place in line; the set stays the same.
  if (!known) registeredVersion += 1;
  if (registered.size > maximumRegistered) {
    registered.delete(registered.values().next().value as string);
  }
}

/**
 * Values of secret-looking environment variables. Runs for every log line, so it is kept
 * cheap: reading an environment value crosses into the runtime, so only names are listed
 * (`Reflect.ownKeys` is the cheapest listing) and only secret-looking ones are read.
 */
function environmentSecrets(): string[] {
  const env = process.env;
  const values: string[] = [];
  for (const name of Reflect.ownKeys(env)) {
    if (typeof name !== "string" || !secretNamePattern.test(name)) continue;
    const value = env[name];
    if (value && value.length >= minimumSecretLength) values.push(value);
  }
  return values;
}

function sameValues(a: readonly string[], b: readonly string[]): boolean {
  return a.length === b.length && a.every((value, index) => value === b[index]);
}

function currentSecrets(): readonly string[] {
  // The environment is read again on every call, so a variable set a moment ago is redacted;
  // only the sorted union is reused while neither source changed.
  const fromEnv = environmentSecrets();
  if (lastScan?.registeredVersion === registeredVersion && sameValues(lastScan.fromEnv, fromEnv)) {
    return lastScan.sorted;
  }
  // Longest first, so a secret that contains another is replaced whole.
  const sorted = [...new Set([...registered, ...fromEnv])].sort((a, b) => b.length - a.length);
  lastScan = { registeredVersion, fromEnv, sorted };
  return sorted;
}

/** Replaces every known secret in `text` with `[REDACTED]`. */
export function redactSecrets(text: string): string {
  let result = text;
  for (const secret of currentSecrets()) {
    if (result.includes(secret)) result = result.split(secret).join("[REDACTED]");
  }
  return result;
}
