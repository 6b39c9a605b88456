/**
 * Whether a vault's address-book copy may be used for a decision. A configured vault whose copy
 * was never synced, or is older than the maximum age, is stale: its transfers defer (503) rather
 * than be decided on an address book that may have lost or gained entries since.
 */
import type { AddressBookView } from "../core/addressbook/types.js";

export interface Freshness {
  stale: boolean;
  /** Seconds since the last good sync (0 when the sync time is ahead of our clock), or null. */
  ageSeconds: number | null;
  /** Why the copy is stale, for the defer message and /readyz; null when fresh or not configured. */
  reason: string | null;
}

export function addressBookFreshness(view: Pick<AddressBookView, "configured" | "vault" | "syncedAt">, now: Date, maxAgeSeconds: number): Freshness {
  if (!view.configured) return { stale: false, ageSeconds: null, reason: null };
  if (view.syncedAt === null) {
    return { stale: true, ageSeconds: null, reason: `address book of ${view.vault} has not been synced yet` };
  }
  // A sync time slightly ahead of this process's clock (another process, clock skew) counts as fresh.
  const aheadMs = view.syncedAt.getTime() - now.getTime();
  if (aheadMs > CLOCK_SKEW_TOLERATED_MS) return datedAhead(view.vault, aheadMs);
  const ageMs = Math.max(0, -aheadMs);
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

/**
 * A copy dated further ahead than this was synced by a process whose clock runs ahead. Taken as
 * fresh, it would stay "fresh" for the maximum age plus that lead, and since a later sync that
 * started before its date is refused as superseded (store.ts), an entry removed on the platform
 * would keep counting for as long: so it is stale until the clocks agree.
 */
export const CLOCK_SKEW_TOLERATED_MS = 60_000;

function datedAhead(vault: string, aheadMs: number): Freshness {
  const seconds = Math.ceil(aheadMs / 1000);
  return {
    stale: true,
    ageSeconds: 0,
    reason: `address book of ${vault} is dated ${seconds}s ahead of this process's clock: the clocks of the processes sharing the database disagree`,
  };
}

export const isAddressBookStale = (view: Pick<AddressBookView, "configured" | "vault" | "syncedAt">, now: Date, maxAgeSeconds: number): boolean =>
  addressBookFreshness(view, now, maxAgeSeconds).stale;
