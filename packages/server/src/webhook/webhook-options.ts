/** How many times a webhook is tried before it is given up, by default. */
export const DEFAULT_WEBHOOK_MAX_ATTEMPTS = 5;
/** How long one attempt may take, by default: 10 s. */
export const DEFAULT_WEBHOOK_TIMEOUT_MS = 10_000;
/** The wait before the first retry, by default; it doubles with each retry. */
export const DEFAULT_WEBHOOK_RETRY_DELAY_MS = 1_000;
/** The longest wait between two attempts (a receiver's `Retry-After` included), by default. */
export const DEFAULT_WEBHOOK_MAX_RETRY_DELAY_MS = 60_000;

/**
 * How the server sends the webhooks runs ask for (a run's `webhook` URL gets a POST when the
 * run ends). See the README's "Webhooks" for the request a receiver gets and how it verifies
 * it.
 */
export interface WebhookOptions {
  /**
   * Signs every webhook the Standard Webhooks way (`webhook-id`, `webhook-timestamp`,
   * `webhook-signature` headers), so receivers verify it with any Standard Webhooks library:
   * `"whsec_"` and the base64 of 24 to 64 random bytes. Without it webhooks are sent unsigned.
   * It never appears in logs or errors.
   */
  secret?: string;
  /**
   * Sends webhooks to loopback, private (RFC 1918, CGNAT), link-local, unique-local and other
   * non-public addresses too. Default `false`: such URLs are refused at run creation when the
   * address is literal, and undelivered when a host name resolves to one.
   */
  allowPrivateNetworks?: boolean;
  /**
   * The only hosts webhooks go to: exact names (`hooks.example.com`), or `*.example.com` for
   * any subdomain of `example.com`. A run asking for another host is refused with a 422.
   * Default: any host (still public addresses only, unless `allowPrivateNetworks`).
   */
  allowedHosts?: readonly string[];
  /** Attempts per webhook, the first included. Default {@link DEFAULT_WEBHOOK_MAX_ATTEMPTS}. */
  maxAttempts?: number;
  /** How long one attempt may take. Default {@link DEFAULT_WEBHOOK_TIMEOUT_MS}. */
  timeoutMs?: number;
  /** The wait before the first retry. Default {@link DEFAULT_WEBHOOK_RETRY_DELAY_MS}. */
  retryDelayMs?: number;
  /** The longest wait between attempts. Default {@link DEFAULT_WEBHOOK_MAX_RETRY_DELAY_MS}. */
  maxRetryDelayMs?: number;
}
