import { randomBytes } from "node:crypto";
import { ConfigurationError } from "@framework/core";
import { Webhook } from "standardwebhooks";
import { describe, expect, it } from "vitest";
import { webhookKey, webhookSignature } from "./webhook-signature.js";

describe("webhook signatures", () => {
  it("signs exactly as the standardwebhooks package does", () => {
    const secret = `whsec_${randomBytes(32).toString("base64")}`;
    const body = JSON.stringify({ run_id: "r", values: { text: "héllo \u0000" } });
    const at = new Date("2026-03-01T12:00:00Z");
    const timestamp = Math.floor(at.getTime() / 1000);
    expect(webhookSignature(webhookKey(secret), "msg_1", timestamp, body)).toBe(
      new Webhook(secret).sign("msg_1", at, body),
    );
  });

  it.each([
    "not-a-secret",
    "whsec_not base64 at all!",
    `whsec_${randomBytes(16).toString("base64")}`,
    `whsec_${randomBytes(65).toString("base64")}`,
    `whsec_${randomBytes(32).toString("hex")}!`,
    randomBytes(32).toString("base64"),
  ])(
    "refuses a secret that is not whsec_ and 24 to 64 bytes of base64, without naming it",
    (secret) => {
      let thrown: unknown;
      try {
        webhookKey(secret);
      } catch (error) {
        thrown = error;
      }
      expect(ConfigurationError.isInstance(thrown)).toBe(true);
      expect(thrown).toMatchObject({ setting: "webhooks.secret" });
      expect((thrown as Error).message).not.toContain(secret);
    },
  );

  it("accepts keys of 24 to 64 bytes", () => {
    for (const size of [24, 32, 64]) {
      expect(webhookKey(`whsec_${randomBytes(size).toString("base64")}`)).toHaveLength(size);
    }
  });
});
