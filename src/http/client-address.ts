/**
 * Who sent a request, as a bound on what one sender may hold can count it: the peer's address, or
 * the client a proxy named in COUNTERSIGN_TRUST_PROXY forwarded for (express's `req.ip`), so a
 * proxy's own address does not become every client's. An IPv6 client is counted by its /64, the
 * block one subscriber or host is given: counted by address, one host would be 2^64 senders.
 * Parsing is ipaddr.js's, the parser express's own proxy handling uses.
 */
import ipaddr from "ipaddr.js";
import type { Request } from "express";

/** A client whose address is unknown (its socket already gone) shares one count with all such. */
const UNKNOWN = "unknown";

export function clientOf(req: Request): string {
  return clientKey(req.ip);
}

/** The count an address belongs to: an IPv4 address (also when IPv4-mapped), or an IPv6 /64 prefix. */
export function clientKey(address: string | undefined): string {
  if (address === undefined) return UNKNOWN;
  const bare = address.replace(/%.*$/, "");
  if (!ipaddr.isValid(bare)) return UNKNOWN;
  const parsed = ipaddr.process(bare);
  if (parsed.kind() === "ipv4") return parsed.toString();
  return `${(parsed as ipaddr.IPv6).parts
    .slice(0, 4)
    .map((group) => group.toString(16))
    .join(":")}::/64`;
}
