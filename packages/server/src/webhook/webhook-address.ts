import { BlockList, isIP } from "node:net";

/**
 * Addresses a webhook is never sent to unless private networks are allowed: this machine,
 * private and shared networks, link-local (cloud metadata at 169.254.169.254 among them),
 * multicast, reserved and unspecified ones. Node's `BlockList` also matches IPv4-mapped IPv6
 * forms (`::ffff:127.0.0.1`) against the IPv4 ranges.
 */
const refused = new BlockList();
for (const [network, prefix] of [
  ["0.0.0.0", 8], // "this network", 0.0.0.0 included
  ["10.0.0.0", 8], // RFC 1918
  ["100.64.0.0", 10], // carrier-grade NAT (RFC 6598)
  ["127.0.0.0", 8], // loopback
  ["169.254.0.0", 16], // link-local, cloud metadata
  ["172.16.0.0", 12], // RFC 1918
  ["192.0.0.0", 24], // IETF protocol assignments
  ["192.168.0.0", 16], // RFC 1918
  ["198.18.0.0", 15], // benchmarking
  ["224.0.0.0", 4], // multicast
  ["240.0.0.0", 4], // reserved, broadcast included
] as const) {
  refused.addSubnet(network, prefix, "ipv4");
}
for (const [network, prefix] of [
  ["::", 128], // unspecified
  ["::1", 128], // loopback
  ["::", 96], // IPv4-compatible (deprecated), routed nowhere public
  ["64:ff9b::", 96], // NAT64: reaches the IPv4 address it embeds
  ["fc00::", 7], // unique local
  ["fe80::", 10], // link-local
  ["fec0::", 10], // site-local (deprecated)
  ["ff00::", 8], // multicast
] as const) {
  refused.addSubnet(network, prefix, "ipv6");
}

/**
 * Whether a webhook may not be sent to `address` (an IPv4 or IPv6 literal, without brackets)
 * while private networks are not allowed. Anything that is not an IP address is refused.
 */
export function isRefusedAddress(address: string): boolean {
  const family = isIP(address);
  if (family === 0) return true;
  return refused.check(address, family === 4 ? "ipv4" : "ipv6");
}
