/** `countersign addressbook sync`: fetch every configured vault's address book once; exit 1 on any failure. */
import { custodyClientFromConfig } from "../addressbook/custody-client.js";
import { syncVault } from "../addressbook/sync.js";
import type { Config } from "../config.js";
import { openDatabase } from "../database.js";
import { migrateAsOwner } from "../db/migrate.js";

export async function addressBookSync(config: Readonly<Config>, out: (line: string) => void): Promise<number> {
  const api = config.custodyApi;
  if (!api) {
    out("address-book sync is not configured: set COUNTERSIGN_API_URL, COUNTERSIGN_SERVICE_ACCOUNT_EMAIL, COUNTERSIGN_SERVICE_ACCOUNT_KEY_FILE and COUNTERSIGN_VAULTS");
    return 2;
  }
  const handle = await openDatabase({ url: config.databaseUrl, dataDir: config.dataDir });
  try {
    if (config.migrate) await migrateAsOwner(handle.db, config.migrateDatabaseUrl);
    const deps = { db: handle.db, client: custodyClientFromConfig(api), clock: () => new Date(), limits: api.syncLimits };
    let failures = 0;
    for (const vault of api.vaults) {
      const result = await syncVault(deps, vault);
      if (result.ok) {
        const r = result.value;
        out(`${r.vault}: ${r.outcome} (generation ${r.generation}): ${r.entries} address-book entries, ${r.ownAddresses} own addresses`);
      } else {
        failures++;
        out(`vaults/${vault}: sync failed: ${result.error.message}`);
      }
    }
    return failures === 0 ? 0 : 1;
  } finally {
    await handle.close();
  }
}
