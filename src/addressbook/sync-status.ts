/**
 * Per-vault sync status, read from the database so that it reports what every service process
 * did (any of them may have synced the vault), for `GET /v1/policy` and `/readyz`.
 */
import type { Db } from "../database.js";
import { vaultName } from "./copy.js";
import { addressBookFreshness } from "./freshness.js";

export interface VaultSyncStatus {
  /** `vaults/{id}` */
  vault: string;
  /** Last good sync (when the stored copy was fetched), or null. */
  syncedAt: Date | null;
  ageSeconds: number | null;
  stale: boolean;
  staleReason: string | null;
  lastAttemptAt: Date | null;
  /** The last failure since the last good sync, or null. */
  lastError: { code: string; message: string; at: Date } | null;
  entryCount: number;
  ownAddressCount: number;
}

export async function readSyncStatus(db: Db, vaults: readonly string[], now: Date, maxAgeSeconds: number): Promise<VaultSyncStatus[]> {
  const names = vaults.map(vaultName);
  if (names.length === 0) return [];
  const rows = await db.selectFrom("address_book_sync").selectAll().where("vault", "in", names).execute();
  const byVault = new Map(rows.map((r) => [r.vault, r]));
  return names.map((vault) => {
    const row = byVault.get(vault);
    const syncedAt = row?.synced_at ?? null;
    const freshness = addressBookFreshness({ configured: true, vault, syncedAt }, now, maxAgeSeconds);
    const lastError = row?.last_error != null && row.last_error_at !== null ? { code: row.last_error_code ?? "UNKNOWN", message: row.last_error, at: row.last_error_at } : null;
    return {
      vault,
      syncedAt,
      ageSeconds: freshness.ageSeconds,
      stale: freshness.stale,
      staleReason: freshness.reason,
      lastAttemptAt: row?.attempted_at ?? null,
      lastError,
      entryCount: row?.entry_count ?? 0,
      ownAddressCount: row?.own_address_count ?? 0,
    };
  });
}
