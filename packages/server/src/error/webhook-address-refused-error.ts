import { FrameworkError } from "@framework/core";

const name = "WebhookAddressRefusedError";
const marker = `framework.error.${name}`;
const symbol = Symbol.for(marker);

/**
 * A run's webhook host resolved to an address webhooks are not sent to (loopback, private,
 * link-local, multicast, reserved): the webhook is not delivered. Set the server's
 * `webhooks.allowPrivateNetworks` to deliver to such receivers.
 */
export class WebhookAddressRefusedError extends FrameworkError {
  private readonly [symbol] = true;

  /** The host name in the webhook URL. */
  declare readonly host: string;
  /** The address it resolved to. */
  declare readonly address: string;

  constructor(options: { host: string; address: string }) {
    super({
      name,
      message: `Webhook host ${options.host} resolves to ${options.address}, an address webhooks are not sent to (see webhooks.allowPrivateNetworks)`,
      fields: { host: options.host, address: options.address },
    });
  }

  static override isInstance(error: unknown): error is WebhookAddressRefusedError {
    return FrameworkError.hasMarker(error, marker);
  }
}
