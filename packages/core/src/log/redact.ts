const secretNamePattern = /(?:_KEY|SECRET|TOKEN|PASSWORD)$/i;
const minimumSecretLength = 6;
// Secrets given explicitly (options, environment) are few and kept for the process life.
const pinned = new Set<string>();
// Bounded: a card per request registers a token per request; the oldest are forgotten first.
const maximumEvictable = 1024;
const evictable = new Set<string>();
// Bumped whenever the registered set changes, so a cached union of secrets knows it is stale.
let registeredVersion = 0;
let lastScan: { registeredVersion: number; fromEnv: string[]; sorted: string[] } | undefined;

/** Options of {@link registerSecret}. */
export interface RegisterSecretOptions {
  /**
   * A secret discovered per request (a bearer token, say) rather than configured: it is kept
   * among the 1,024 most recently registered such values, so a long-running server does not
   * grow without bound. Default `false`: the secret is redacted for the life of the process.
   */
  evictable?: boolean;
}

/**
 * Marks a value as secret: from now on it is replaced by `[REDACTED]` in every log line and
 * framework error. Values of environment variables whose names end in `_KEY`, `SECRET`,
 * `TOKEN` or `PASSWORD` are treated as secret without registration.
 */
export function registerSecret(
  value: string | undefined,
  { evictable: isEvictable = false }: RegisterSecretOptions = {},
): void {
  if (!value || value.length < minimumSecretLength || pinned.has(value)) return;
  if (!isEvictable) {
    evictable.delete(value);
    pinned.add(value);
    registeredVersion += 1;
    return;
  }
  const known = evictable.delete(value);
  evictable.add(value);
  // Re-registering a known value only refreshes its place in line; the set stays the same.
  if (!known) registeredVersion += 1;
  if (evictable.size > maximumEvictable) {
    evictable.delete(evictable.values().next().value as string);
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
  const sorted = [...new Set([...pinned, ...evictable, ...fromEnv])].sort(
    (a, b) => b.length - a.length,
  );
  lastScan = { registeredVersion, fromEnv, sorted };
  return sorted;
}

// `scheme://user:password@` (or a bare token as user) up to the host.
const urlUserinfoPattern = /\b([a-z][a-z\d+.-]*:\/\/)[^\s/?#@]+@/gi;
// Query parameters that carry credentials by convention, as providers name them.
const credentialParameterPattern =
  /([?&;](?:key|api[-_]?key|apikey|x-api-key|token|access[-_]?token|refresh[-_]?token|id[-_]?token|auth|auth[-_]?token|authorization|secret|client[-_]?secret|password|passwd|pwd|signature|sig|session[-_]?id|sessionid|code)=)[^&#\s"'<>]+/gi;

/**
 * Replaces the credentials a URL may carry: its userinfo (`https://user:pass@host`) and the
 * values of credential query parameters (`key`, `api_key`, `apikey`, `token`,
 * `access_token`, `secret`, `password`, `signature`…).
 */
export function redactUrlCredentials(text: string): string {
  if (!text.includes("@") && !text.includes("=")) return text;
  return text
    .replace(urlUserinfoPattern, "$1[REDACTED]@")
    .replace(credentialParameterPattern, "$1[REDACTED]");
}

// An echoed request header (`Authorization: Bearer …`, `Authorization: Apikey …`), whatever
// the token is; and a bare `Bearer <token>` as HTTP libraries print it.
const authorizationPattern =
  /\b(Authorization:\s*)(?:(?:Bearer|Basic|Apikey|Token)\s+)?[^\s,;"'<>]+/gi;
const bearerPattern = /\b(Bearer\s+)[A-Za-z0-9._~+/-]{6,}=*/g;

/**
 * Replaces every known secret in `text` with `[REDACTED]`, the credentials of every URL in it
 * (see {@link redactUrlCredentials}), and any echoed `Authorization` header or bearer token.
 */
export function redactSecrets(text: string): string {
  let result = text;
  for (const secret of currentSecrets()) {
    if (result.includes(secret)) result = result.split(secret).join("[REDACTED]");
  }
  result = redactUrlCredentials(result);
  if (!/authorization|bearer/i.test(result)) return result;
  return result
    .replace(authorizationPattern, "$1[REDACTED]")
    .replace(bearerPattern, "$1[REDACTED]");
}
