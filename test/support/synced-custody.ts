/**
 * A fake custody API serving one vault's wallets, and the settings that make a test service sync
 * that vault from it (its service account, key file and vault list): for tests that need the
 * synced copy of the vault's own wallets without the address-book harness of
 * test/e2e/address-book.test.ts.
 */
import { afterAll, beforeAll } from "vitest";
import type { Logger } from "../../src/log.js";
import { CosignerSimulator } from "./cosigner.js";
import { startFakeCustodyApi, type FakeCustodyApi, type FakeWallet } from "./fake-custody-api.js";
import { createTestDatabase } from "./postgres.js";
import { createTestServiceAccount, writeTempPem } from "./service-account.js";
import { startTestService, writeBundle, type PolicyService } from "./service.js";

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

export interface SyncedService extends PolicyService {
  custody: SyncedCustody;
}

/**
 * A service on a fresh database with `policy`, syncing `vaultId`'s `wallets` from a fake custody
 * API (synced once before the tests; the next sync an hour later), and a co-signer pointed at it,
 * for one describe block: started before its tests, stopped after them. `env` adds settings;
 * `logger` receives the service's log.
 */
export function serviceWithSyncedWallets(policy: string, vaultId: string, wallets: FakeWallet[], options: { env?: Record<string, string>; logger?: Logger } = {}): SyncedService {
  const suite = {} as SyncedService;
  beforeAll(async () => {
    suite.tdb = await createTestDatabase();
    suite.custody = await startSyncedCustody(vaultId, wallets);
    suite.service = await startTestService({
      database: suite.tdb.handle,
      policiesDir: writeBundle(policy),
      env: { ...suite.custody.env, COUNTERSIGN_ADDRESS_BOOK_REFRESH: "1h", ...options.env },
      ...(options.logger ? { logger: options.logger } : {}),
    });
    const synced = await suite.service.background.sync!.syncAll();
    if (!synced.every((result) => result.ok)) throw new Error(`the first sync of ${vaultId} failed`);
    suite.cosigner = new CosignerSimulator({ webhookUrl: `${suite.service.url}/v1/cosigner/webhook`, platform: suite.custody.api });
  });
  afterAll(async () => {
    await suite.service?.stop();
    await suite.custody?.close();
    await suite.tdb?.drop();
  });
  return suite;
}
