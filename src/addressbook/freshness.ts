/**
 * Whether a vault's address-book copy may be used for a decision. A configured vault whose copy
 * was never synced, or is older than the maximum age, is stale: its transfers defer (503) rather
 * than be decided on an address book that may have lost or gained entries since.
 */
import type { AddressBookView } from "./types.js";

export interface Freshness {
  stale: boolean;
  /** Seconds since the last good sync (0 when the sync time is ahead of our clock), or null. */
  ageSeconds: number | null;
  /** Why the copy is stale, for the defer message and /readyz; null when fresh or not configured. */
  reason: string | null;
}

export function addressBookFreshness(
  view: Pick<AddressBookView, "configured" | "vault" | "syncedAt">,
  now: Date,
  maxAgeSeconds: number,
): Freshness {
  if (!view.configured) return { stale: false, ageSeconds: null, reason: null };
  if (view.syncedAt === null) {
    return { stale: true, ageSeconds: null, reason: `address book of ${view.vault} has not been synced yet` };
  }
  // A sync time slightly ahead of this process's clock (another process, clock skew) counts as fresh.
  const ageMs = Math.max(0, now.getTime() - view.syncedAt.getTime());
  const ageSeconds = Math.floor(ageMs / 1000);
  if (ageMs > maxAgeSeconds * 1000) {
    return {
      stale: true,
      ageSeconds,
      reason: `address book of ${view.vault} was last synced ${ageSeconds}s ago (maximum ${maxAgeSeconds}s)`,
    };
  }
  return { stale: false, ageSeconds, reason: null };
}

export const isAddressBookStale = (
  view: Pick<AddressBookView, "configured" | "vault" | "syncedAt">,
  now: Date,
  maxAgeSeconds: number,
): boolean => addressBookFreshness(view, now, maxAgeSeconds).stale;
