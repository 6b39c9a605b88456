/**
 * Who sent a request, as a bound on what one sender may hold can count it: the peer's address, or
 * the client a proxy named in COUNTERSIGN_TRUST_PROXY forwarded for (express's `req.ip`), so a
 * proxy's own address does not become every client's. An IPv6 client is counted by its /64, the
 * block one subscriber or host is given: counted by address, one host would be 2^64 senders.
 */
import { isIPv4, isIPv6 } from "node:net";
import type { Request } from "express";

/** A client whose address is unknown (its socket already gone) shares one count with all such. */
const UNKNOWN = "unknown";

export function clientOf(req: Request): string {
  return clientKey(req.ip);
}

/** The count an address belongs to: an IPv4 address (also when IPv4-mapped), or an IPv6 /64 prefix. */
export function clientKey(address: string | undefined): string {
  if (address === undefined) return UNKNOWN;
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  if (mapped) return mapped[1]!;
  if (isIPv4(address)) return address;
  const bare = address.replace(/%.*$/, "");
  if (!isIPv6(bare)) return UNKNOWN;
  return `${ipv6Groups(bare).slice(0, 4).join(":")}::/64`;
}

/** The eight 16-bit groups of an IPv6 address, in lower-case hex without leading zeros. */
function ipv6Groups(address: string): string[] {
  const [head = "", tail] = address.split("::");
  const part = (text: string) => (text === "" ? [] : text.split(":"));
  const left = part(head);
  const right = tail === undefined ? [] : part(tail);
  const zeros = Array<string>(8 - left.length - right.length).fill("0");
  return [...left, ...zeros, ...right].map((group) => Number.parseInt(group, 16).toString(16));
}
