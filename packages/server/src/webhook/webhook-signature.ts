import { createHmac } from "node:crypto";
import { ConfigurationError } from "@framework/core";

const secretPrefix = "whsec_";

/**
 * The key of a Standard Webhooks secret (`whsec_` and base64 of 24 to 64 random bytes).
 *
 * @throws ConfigurationError when `secret` is not one; the message never holds it.
 */
export function webhookKey(secret: string): Buffer {
  const encoded = secret.startsWith(secretPrefix) ? secret.slice(secretPrefix.length) : "";
  const key = Buffer.from(encoded, "base64");
  if (
    encoded === "" ||
    !/^[A-Za-z0-9+/]+={0,2}$/.test(encoded) ||
    key.length < 24 ||
    key.length > 64
  ) {
    throw new ConfigurationError({
      setting: "webhooks.secret",
      message:
        'webhooks.secret must be "whsec_" followed by the base64 of 24 to 64 random bytes, e.g. `"whsec_" + randomBytes(32).toString("base64")`',
    });
  }
  return key;
}

/**
 * The Standard Webhooks `webhook-signature` header of one delivery attempt: `v1,` and the
 * base64 HMAC-SHA256, under the secret's key, of `<webhook-id>.<webhook-timestamp>.<body>`.
 */
export function webhookSignature(key: Buffer, id: string, timestamp: number, body: string): string {
  const mac = createHmac("sha256", key).update(`${id}.${timestamp}.${body}`).digest("base64");
  return `v1,${mac}`;
}
