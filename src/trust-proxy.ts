/**
 * `COUNTERSIGN_TRUST_PROXY`: which peers' `X-Forwarded-Proto` / `X-Forwarded-Host` express may
 * believe. The service speaks plain HTTP, so behind TLS termination the review page saw every
 * browser's `https://` Origin as another site (each form refused with 403) and never marked its
 * cookie `Secure`. Trusting every peer would let any client claim https; so the operator names the
 * proxies: a hop count, or addresses and subnets (and express's names for loopback, link-local and
 * unique-local ranges). The same proxies' `X-Forwarded-For` names the client that the bounds on
 * reads per client count (src/http/client-address.ts); behind a proxy not named here, every client
 * is counted as the proxy.
 */
import { isIP } from "node:net";

export type TrustProxy = false | number | string[];

const NAMED_RANGES = new Set(["loopback", "linklocal", "uniquelocal"]);

/** The setting as express takes it, or a message saying what is wrong with it. */
export function parseTrustProxy(text: string | undefined): { value: TrustProxy } | { problem: string } {
  if (text === undefined) return { value: false };
  const trimmed = text.trim();
  if (/^[0-9]+$/.test(trimmed)) {
    const hops = Number(trimmed);
    return hops >= 1 && hops <= 10 ? { value: hops } : { problem: "a hop count is 1 to 10" };
  }
  const entries = trimmed.split(",").map((e) => e.trim());
  const bad = entries.find((e) => !NAMED_RANGES.has(e) && !isAddressOrSubnet(e));
  if (bad !== undefined) return { problem: `"${bad}" is neither an address, a subnet (10.0.0.0/8), loopback, linklocal nor uniquelocal` };
  return { value: entries };
}

function isAddressOrSubnet(entry: string): boolean {
  const [address = "", prefix, ...rest] = entry.split("/");
  const family = isIP(address);
  if (family === 0 || rest.length > 0) return false;
  if (prefix === undefined) return true;
  return /^[0-9]{1,3}$/.test(prefix) && Number(prefix) <= (family === 4 ? 32 : 128);
}
