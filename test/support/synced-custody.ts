/**
 * A fake custody API serving one vault's wallets, and the settings that make a test service sync
 * that vault from it (its service account, key file and vault list): for tests that need the
 * synced copy of the vault's own wallets without the address-book harness of
 * test/e2e/address-book.test.ts.
 */
import { startFakeCustodyApi, type FakeCustodyApi, type FakeWallet } from "./fake-custody-api.js";
import { createTestServiceAccount, writeTempPem } from "./service-account.js";

export interface SyncedCustody {
  api: FakeCustodyApi;
  /** For startTestService's `env`. */
  env: Record<string, string>;
  close(): Promise<void>;
}

export async function startSyncedCustody(vaultId: string, wallets: FakeWallet[]): Promise<SyncedCustody> {
  const account = createTestServiceAccount();
  const api = await startFakeCustodyApi({ serviceAccountEmail: account.email, publicKey: account.publicKey });
  api.setWallets(vaultId, wallets);
  const key = writeTempPem(account.privateKeyPem);
  return {
    api,
    env: {
      COUNTERSIGN_API_URL: api.baseUrl,
      COUNTERSIGN_SERVICE_ACCOUNT_EMAIL: account.email,
      COUNTERSIGN_SERVICE_ACCOUNT_KEY_FILE: key.path,
      COUNTERSIGN_VAULTS: vaultId,
    },
    close: async () => {
      await api.close();
      key.remove();
    },
  };
}
