import { lookup as dnsLookup, type LookupAddress, type LookupOptions } from "node:dns";
import http from "node:http";
import https from "node:https";
import { WebhookAddressRefusedError } from "../error/webhook-address-refused-error.js";
import { isRefusedAddress } from "./webhook-address.js";
import { webhookSignature } from "./webhook-signature.js";
import { type WebhookTargets, webhookUrlProblem } from "./webhook-url.js";

/** One webhook to deliver: the same id and body on every attempt. */
export interface WebhookMessage {
  /** The Standard Webhooks `webhook-id`: receivers drop a repeat by it. */
  readonly id: string;
  readonly url: string;
  /** The JSON body. */
  readonly body: string;
  /** The run it tells of, for the log. */
  readonly runId: string;
}

/** How one attempt went. */
export type WebhookAttempt =
  /** The receiver answered 2xx. */
  | { readonly outcome: "delivered"; readonly status: number }
  /** A network error, a timeout, a 429 or a 5xx: worth another attempt. */
  | { readonly outcome: "retry"; readonly reason: string; readonly retryAfterMs?: number }
  /** Another answer, or a URL or address webhooks are not sent to: not retried. */
  | { readonly outcome: "failed" | "refused"; readonly reason: string };

/** What {@link sendWebhook} needs besides the message. */
export interface WebhookSendOptions extends WebhookTargets {
  /** The signing key; unsigned without it. */
  readonly key: Buffer | undefined;
  readonly timeoutMs: number;
  /** Abandons the attempt (the server closing). */
  readonly signal?: AbortSignal;
}

/**
 * Makes one attempt at delivering a webhook: a signed POST, without following redirects. Unless
 * private networks are allowed, the host name is resolved once and the connection goes to the
 * address checked, so a name that resolves to a public address for the check and a private
 * one for the connection (DNS rebinding) gets nowhere.
 */
export function sendWebhook(
  message: WebhookMessage,
  options: WebhookSendOptions,
): Promise<WebhookAttempt> {
  const problem = webhookUrlProblem(message.url, options);
  if (problem !== undefined) return Promise.resolve({ outcome: "refused", reason: problem });
  const url = new URL(message.url);
  const timestamp = Math.floor(Date.now() / 1000);
  const headers: Record<string, string> = {
    "content-type": "application/json",
    "content-length": String(Buffer.byteLength(message.body)),
    "user-agent": "framework-server-webhooks",
    "webhook-id": message.id,
    "webhook-timestamp": String(timestamp),
  };
  if (options.key) {
    headers["webhook-signature"] = webhookSignature(
      options.key,
      message.id,
      timestamp,
      message.body,
    );
  }
  const timeout = AbortSignal.timeout(options.timeoutMs);
  const signal = options.signal ? AbortSignal.any([timeout, options.signal]) : timeout;
  return new Promise((resolve) => {
    const request = (url.protocol === "https:" ? https : http).request(url, {
      method: "POST",
      headers,
      signal,
      // A connection per attempt: an idle pooled socket would outlive the server's close().
      agent: false,
      ...(options.allowPrivateNetworks ? {} : { lookup: publicOnlyLookup }),
    });
    request.on("response", (response) => {
      response.resume();
      const status = response.statusCode ?? 0;
      response.on("end", () => resolve(attemptOf(status, response.headers["retry-after"])));
      response.on("error", () => resolve(attemptOf(status, response.headers["retry-after"])));
    });
    request.on("error", (error) => {
      if (WebhookAddressRefusedError.isInstance(error)) {
        resolve({ outcome: "refused", reason: error.message });
      } else if (timeout.aborted) {
        resolve({ outcome: "retry", reason: `no answer within ${options.timeoutMs} ms` });
      } else {
        resolve({ outcome: "retry", reason: `${error.name}: ${error.message}` });
      }
    });
    request.end(message.body);
  });
}

function attemptOf(status: number, retryAfter: string | undefined): WebhookAttempt {
  if (status >= 200 && status < 300) return { outcome: "delivered", status };
  if (status === 429 || status >= 500) {
    const wait = retryAfterMs(retryAfter, Date.now());
    return {
      outcome: "retry",
      reason: `answered ${status}`,
      ...(wait === undefined ? {} : { retryAfterMs: wait }),
    };
  }
  if (status >= 300 && status < 400) {
    return { outcome: "failed", reason: `answered ${status}; webhook redirects are not followed` };
  }
  return { outcome: "failed", reason: `answered ${status}` };
}

/** A `Retry-After` header (seconds, or an HTTP date) as a wait from `now`, in ms. */
export function retryAfterMs(header: string | undefined, now: number): number | undefined {
  if (header === undefined) return undefined;
  const value = header.trim();
  if (/^\d+$/.test(value)) return Number(value) * 1000;
  const date = Date.parse(value);
  return Number.isNaN(date) ? undefined : Math.max(0, date - now);
}

type LookupCallback = (
  error: NodeJS.ErrnoException | null,
  address: string | LookupAddress[],
  family?: number,
) => void;

/**
 * Resolves like `dns.lookup`, but fails when any address the name resolves to is not public:
 * the connection then goes to one of the addresses checked here.
 */
function publicOnlyLookup(hostname: string, options: LookupOptions, callback: LookupCallback) {
  dnsLookup(hostname, { ...options, all: true }, (error, addresses) => {
    if (error || addresses.length === 0) {
      callback(
        error ?? Object.assign(new Error(`${hostname} resolves to nothing`), { code: "ENOTFOUND" }),
        [],
      );
      return;
    }
    const refused = addresses.find((entry) => isRefusedAddress(entry.address));
    if (refused) {
      callback(new WebhookAddressRefusedError({ host: hostname, address: refused.address }), []);
      return;
    }
    if (options.all) callback(null, addresses);
    else callback(null, addresses[0]!.address, addresses[0]!.family);
  });
}
