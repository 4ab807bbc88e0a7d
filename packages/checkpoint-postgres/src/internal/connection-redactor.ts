/** What stands for a hidden password in messages. */
const mask = "***";

function urlPassword(connectionString: string): string | undefined {
  try {
    const password = new URL(connectionString).password;
    return password === "" ? undefined : password;
  } catch {
    // Not a URL the WHATWG parser accepts: find `user:password@` by hand.
    return /^[a-z][\w+.-]*:\/\/[^:/@\s]*:([^@\s]*)@/i.exec(connectionString)?.[1];
  }
}

function keywordPassword(connectionString: string): string | undefined {
  const match = /(?:^|\s)password\s*=\s*('(?:[^'\\]|\\.)*'|\S+)/i.exec(connectionString);
  return match?.[1]?.replace(/^'|'$/g, "");
}

/**
 * Hides a Postgres connection's password in any text: the password itself (raw, URL-encoded
 * and decoded), the `user:password@` part of any URL and `password=` settings, so neither an
 * error message nor a log line can carry it.
 */
export class ConnectionRedactor {
  readonly #secrets: string[];

  constructor(passwords: readonly (string | undefined)[]) {
    const variants = new Set<string>();
    for (const password of passwords) {
      if (!password) continue;
      variants.add(password);
      variants.add(encodeURIComponent(password));
      try {
        variants.add(decodeURIComponent(password));
      } catch {
        // Not percent-encoded: the raw form is already covered.
      }
    }
    // Longest first, so a password that contains another is replaced whole.
    this.#secrets = [...variants].filter(Boolean).sort((a, b) => b.length - a.length);
  }

  /** The passwords a connection string or pool settings carry. */
  static passwordsOf(connectionString: string | undefined, password: unknown): string[] {
    const found: string[] = [];
    if (connectionString) {
      for (const candidate of [urlPassword(connectionString), keywordPassword(connectionString)]) {
        if (candidate) found.push(candidate);
      }
    }
    if (typeof password === "string" && password !== "") found.push(password);
    return found;
  }

  /** `text` with every password hidden. */
  redact(text: string): string {
    let result = text;
    for (const secret of this.#secrets) result = result.split(secret).join(mask);
    return result
      .replace(/([a-z][\w+.-]*:\/\/[^:/@\s]*:)[^@\s]*@/gi, `$1${mask}@`)
      .replace(/(password\s*=\s*)('(?:[^'\\]|\\.)*'|\S+)/gi, `$1${mask}`);
  }
}

/**
 * Where a connection string points, for messages: `host:port/database`, never the user's
 * password. `undefined` when it cannot be read.
 */
export function describeTarget(connectionString: string): string | undefined {
  try {
    const url = new URL(connectionString);
    return `${url.hostname}${url.port ? `:${url.port}` : ""}${url.pathname}`;
  } catch {
    return undefined;
  }
}
