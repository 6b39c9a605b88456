/**
 * How much one vault's sync may read from the custody API: items (address-book entries, wallets
 * and wallet addresses together) and bytes of successful answers. The per-answer limit (16 MiB)
 * and the page limit (1,000 pages a list) bound one list only, and every custodied wallet's
 * addresses are a list of their own; the copy is held in the memory of the process that also
 * decides, so a hostile or broken API could otherwise fill it with inflated pages until it dies.
 * The defaults are far above any real vault (README, Configuration).
 */

export interface SyncLimits {
  maxItems: number;
  maxBytes: number;
}

export const DEFAULT_SYNC_LIMITS: Readonly<SyncLimits> = { maxItems: 250_000, maxBytes: 128 * 1024 * 1024 };

/** Shared by every request of one vault's sync, wallets read concurrently included. */
export interface SyncBudget {
  readonly limits: Readonly<SyncLimits>;
  /** Counts `n` more items; false once the sync has read more than its limit. */
  takeItems(n: number): boolean;
  /** Counts `n` more bytes; false once the sync has read more than its limit. */
  takeBytes(n: number): boolean;
}

export function createSyncBudget(limits: Partial<SyncLimits> = {}): SyncBudget {
  const bounds = { ...DEFAULT_SYNC_LIMITS, ...limits };
  let items = 0;
  let bytes = 0;
  return {
    limits: bounds,
    takeItems: (n) => (items += n) <= bounds.maxItems,
    takeBytes: (n) => (bytes += n) <= bounds.maxBytes,
  };
}
