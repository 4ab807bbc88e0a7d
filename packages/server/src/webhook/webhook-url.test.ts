import { describe, expect, it } from "vitest";
import { isRefusedAddress } from "./webhook-address.js";
import { loggableUrl, webhookUrlProblem } from "./webhook-url.js";

describe("webhook addresses", () => {
  it.each([
    "127.0.0.1",
    "127.255.0.9",
    "0.0.0.0",
    "10.1.2.3",
    "172.16.0.1",
    "172.31.255.255",
    "192.168.1.1",
    "100.64.0.1",
    "100.127.255.254",
    "169.254.169.254",
    "224.0.0.1",
    "239.255.255.250",
    "255.255.255.255",
    "::",
    "::1",
    "fc00::1",
    "fd12:3456::1",
    "fe80::1",
    "ff02::1",
    "::ffff:127.0.0.1",
    "::ffff:7f00:1",
    "::ffff:169.254.169.254",
    "::ffff:10.0.0.1",
    "64:ff9b::7f00:1",
    "::127.0.0.1",
    "not-an-address",
  ])("refuses %s", (address) => {
    expect(isRefusedAddress(address)).toBe(true);
  });

  it.each([
    "8.8.8.8",
    "1.1.1.1",
    "172.32.0.1",
    "100.128.0.1",
    "169.255.0.1",
    "2606:4700:4700::1111",
    "::ffff:8.8.8.8",
  ])("accepts the public address %s", (address) => {
    expect(isRefusedAddress(address)).toBe(false);
  });
});

const closed = { allowPrivateNetworks: false };
const open = { allowPrivateNetworks: true };

describe("webhook URLs", () => {
  it.each([
    ["http://127.0.0.1:8080/hook", "loopback"],
    ["http://127.1/hook", "loopback"],
    ["http://2130706433/hook", "loopback"],
    ["http://0x7f.0.0.1/hook", "loopback"],
    ["http://[::1]/hook", "loopback"],
    ["http://[::ffff:127.0.0.1]/hook", "loopback"],
    ["http://169.254.169.254/latest/meta-data", "loopback"],
    ["https://10.0.0.5/hook", "loopback"],
    ["http://[fe80::1]/hook", "loopback"],
    ["ftp://example.com/hook", "http and https"],
    ["file:///etc/passwd", "http and https"],
    ["https://user:pass@example.com/hook", "credentials"],
    ["https://token@example.com/hook", "credentials"],
    ["/relative/hook", "absolute"],
  ])("refuses %s", (url, reason) => {
    expect(webhookUrlProblem(url, closed)).toContain(reason);
  });

  it("accepts public http(s) URLs and host names, which are checked once resolved", () => {
    expect(
      webhookUrlProblem("https://hooks.example.com/run-ended?token=x", closed),
    ).toBeUndefined();
    expect(webhookUrlProblem("http://8.8.8.8/hook", closed)).toBeUndefined();
    expect(webhookUrlProblem("http://localhost:3000/hook", closed)).toBeUndefined();
  });

  it("accepts private addresses when allowed, never credentials or other schemes", () => {
    expect(webhookUrlProblem("http://127.0.0.1:3000/hook", open)).toBeUndefined();
    expect(webhookUrlProblem("http://[::1]:3000/hook", open)).toBeUndefined();
    expect(webhookUrlProblem("https://a:b@127.0.0.1/hook", open)).toContain("credentials");
    expect(webhookUrlProblem("gopher://127.0.0.1/", open)).toContain("http and https");
  });

  it("logs a URL without its query string, which may carry a token", () => {
    expect(loggableUrl("https://hooks.example.com/ended?token=abc#x")).toBe(
      "https://hooks.example.com/ended",
    );
  });

  it("keeps to allowedHosts when given: exact names and *. subdomains", () => {
    const targets = {
      allowPrivateNetworks: false,
      allowedHosts: ["hooks.example.com", "*.corp.example"],
    };
    expect(webhookUrlProblem("https://hooks.example.com/x", targets)).toBeUndefined();
    expect(webhookUrlProblem("https://HOOKS.example.com/x", targets)).toBeUndefined();
    expect(webhookUrlProblem("https://a.corp.example/x", targets)).toBeUndefined();
    expect(webhookUrlProblem("https://a.b.corp.example/x", targets)).toBeUndefined();
    for (const url of [
      "https://corp.example/x",
      "https://evilcorp.example/x",
      "https://hooks.example.com.evil.test/x",
      "https://other.example.com/x",
    ]) {
      expect(webhookUrlProblem(url, targets), url).toContain("allowedHosts");
    }
    // An allowed host is still refused when it is a private address.
    expect(
      webhookUrlProblem("http://10.0.0.1/x", {
        allowPrivateNetworks: false,
        allowedHosts: ["10.0.0.1"],
      }),
    ).toContain("private");
  });
});
