import { isIP } from "node:net";
import { isRefusedAddress } from "./webhook-address.js";

/** Where webhooks may go: the server's `webhooks` options that decide it. */
export interface WebhookTargets {
  readonly allowPrivateNetworks: boolean;
  /** Exact host names, or `*.example.com` for any subdomain of it; any host when absent. */
  readonly allowedHosts?: readonly string[];
}

/**
 * Why a webhook URL is refused before any request, or `undefined` when it may be used: only
 * absolute http(s) URLs without credentials, to an allowed host, and (unless private networks
 * are allowed) no literal address of this machine or a private network. A host name passes
 * here; the address it resolves to is checked when the webhook is sent.
 */
export function webhookUrlProblem(url: string, targets: WebhookTargets): string | undefined {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return "Not an absolute URL";
  }
  if (parsed.protocol !== "http:" && parsed.protocol !== "https:") {
    return "Only http and https webhooks are sent";
  }
  if (parsed.username !== "" || parsed.password !== "") {
    return "A webhook URL may not hold credentials: authenticate the webhook by its signature";
  }
  if (
    targets.allowedHosts &&
    !targets.allowedHosts.some((host) => hostMatches(parsed.hostname, host))
  ) {
    return `Host ${parsed.hostname} is not one of the server's webhooks.allowedHosts`;
  }
  if (targets.allowPrivateNetworks) return undefined;
  const address = literalAddress(parsed.hostname);
  if (address !== undefined && isRefusedAddress(address)) {
    return "Webhooks are not sent to loopback, private, link-local, multicast or reserved addresses (see the server's webhooks.allowPrivateNetworks)";
  }
  return undefined;
}

/** Whether `hostname` (as the URL parser leaves it) is `allowed`, or under its `*.` wildcard. */
function hostMatches(hostname: string, allowed: string): boolean {
  const pattern = allowed.toLowerCase();
  return pattern.startsWith("*.")
    ? hostname.endsWith(pattern.slice(1)) && hostname.length > pattern.length - 1
    : hostname === pattern;
}

/** The IP address a URL's host names literally (the WHATWG parser normalizes IPv4 forms). */
export function literalAddress(hostname: string): string | undefined {
  const bare = hostname.startsWith("[") ? hostname.slice(1, -1) : hostname;
  return isIP(bare) === 0 ? undefined : bare;
}

/** A URL as it may be logged: scheme, host and path; a query string may carry a token. */
export function loggableUrl(url: string): string {
  try {
    const parsed = new URL(url);
    return `${parsed.origin}${parsed.pathname}`;
  } catch {
    return "(invalid URL)";
  }
}
