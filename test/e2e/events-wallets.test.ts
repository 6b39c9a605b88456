/**
 * End to end through the real service with the address-book sync on a fake custody API: a
 * WALLET_ADDRESS_CREATED event makes the new address of a vault wallet internal at once, without
 * waiting for the periodic sync (set to 1h here, so its timer never fires during the test).
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { assetTransfer, COLD_WALLET, HOT_WALLET, VAULT } from "../support/bodies.js";
import { CosignerSimulator } from "../support/cosigner.js";
import { eventKeys, postDelivery, sendEvent, signedDelivery } from "../support/event-sender.js";
import { fakeData, startFakeCustodyApi, type FakeCustodyApi } from "../support/fake-custody-api.js";
import { createTestDatabase, type TestDatabase } from "../support/postgres.js";
import { createTestServiceAccount, writeTempPem } from "../support/service-account.js";
import { startTestService } from "../support/service.js";
import { eventId } from "../support/events/harness.js";

const VAULT_ID = VAULT.slice("vaults/".length);
const ADMIN_TOKEN = "admin-token-for-events-e2e";
const ETH_NETWORK = "networks/ethereum-mainnet";
const HOT_ADDRESS = `0x${"11".repeat(20)}`;
const COLD_ADDRESS = `0x${"22".repeat(20)}`;

/** The vault's two wallets as the fake API serves them; `coldExtra` are addresses created later. */
function vaultWallets(coldExtra: { id: string; address: string }[] = []) {
  const walletId = (name: string) => name.split("/").at(-1)!;
  return [
    fakeData.wallet(VAULT_ID, walletId(HOT_WALLET), [{ id: "a0", address: HOT_ADDRESS, network: ETH_NETWORK }]),
    fakeData.wallet(VAULT_ID, walletId(COLD_WALLET), [{ id: "a0", address: COLD_ADDRESS, network: ETH_NETWORK }, ...coldExtra.map((a) => ({ ...a, network: ETH_NETWORK }))]),
  ];
}

function walletAddressCreated(addressId: string) {
  return { id: eventId(), vault: VAULT, type: "WALLET_ADDRESS_CREATED", resourceType: "WALLET_ADDRESS", resource: `${COLD_WALLET}/addresses/${addressId}` };
}

describe("events end to end: WALLET_ADDRESS_CREATED re-syncs the vault's own addresses", () => {
  let tdb: TestDatabase;
  let api: FakeCustodyApi;
  let service: Awaited<ReturnType<typeof startTestService>>;
  let cosigner: CosignerSimulator;
  let eventsUrl: string;
  const tempFiles: { remove(): void }[] = [];

  beforeAll(async () => {
    tdb = await createTestDatabase();
    const account = createTestServiceAccount();
    api = await startFakeCustodyApi({ serviceAccountEmail: account.email, publicKey: account.publicKey });
    api.setAddressBook(VAULT_ID, []);
    api.setWallets(VAULT_ID, vaultWallets());
    const accountKey = writeTempPem(account.privateKeyPem);
    const eventsKey = writeTempPem((await eventKeys()).platform.publicKeyPem, "events-public.pem");
    tempFiles.push(accountKey, eventsKey);
    service = await startTestService({
      database: tdb.handle,
      env: {
        COUNTERSIGN_EVENTS_PUBLIC_KEY_FILE: eventsKey.path,
        COUNTERSIGN_API_URL: api.baseUrl,
        COUNTERSIGN_SERVICE_ACCOUNT_EMAIL: account.email,
        COUNTERSIGN_SERVICE_ACCOUNT_KEY_FILE: accountKey.path,
        COUNTERSIGN_VAULTS: VAULT_ID,
        COUNTERSIGN_ADDRESS_BOOK_REFRESH: "1h",
        COUNTERSIGN_ADMIN_TOKEN: ADMIN_TOKEN,
      },
    });
    // The service started a sync of every vault; this joins it.
    const initial = await service.background.sync!.syncAll();
    expect(initial.map((r) => r.ok)).toEqual([true]);
    cosigner = new CosignerSimulator({ webhookUrl: `${service.url}/v1/cosigner/webhook`, platform: api });
    eventsUrl = `${service.url}/v1/events`;
  });
  afterAll(async () => {
    await service?.stop();
    await api?.close();
    await tdb?.drop();
    for (const f of tempFiles) f.remove();
  });

  /** The dry run's view of a transfer of 1 ETH from the hot wallet to `address`. */
  async function evaluateTo(address: string): Promise<{ decision: string; internal: boolean; matched: string[] }> {
    const response = await fetch(`${service.url}/v1/evaluate`, {
      method: "POST",
      headers: { "content-type": "application/json", authorization: `Bearer ${ADMIN_TOKEN}` },
      body: JSON.stringify(assetTransfer({ amount: "1", destination: address })),
    });
    expect(response.status).toBe(200);
    const body = (await response.json()) as {
      decision: string;
      matchedRules: { rule: string }[];
      facts: { transfer: { destination: { internal: boolean } } }[];
    };
    return { decision: body.decision, internal: body.facts[0]!.transfer.destination.internal, matched: body.matchedRules.map((m) => m.rule) };
  }

  it("a known own address is internal after the initial sync (the setup works)", async () => {
    expect(await evaluateTo(COLD_ADDRESS)).toMatchObject({ decision: "allow", internal: true });
  });

  it("a new address is untrusted until the event, and internal right after it is acknowledged", async () => {
    const created = `0x${"ab".repeat(20)}`;
    api.setWallets(VAULT_ID, vaultWallets([{ id: "new1", address: created }]));

    const before = await cosigner.deliver(assetTransfer({ amount: "1", destination: created }));
    expect(before.verdict).toBe("canceled");
    expect(before.body).toMatchObject({ reasons: ["The destination is neither an approved address-book entry nor a wallet of this vault"] });

    const event = walletAddressCreated("new1");
    // The effect runs before the answer (src/events/process.ts): no polling needed.
    expect(await sendEvent(eventsUrl, event)).toEqual({ status: 200, body: { received: true, duplicate: false } });
    expect(await tdb.handle.db.selectFrom("event_effects").select("effect").where("event_id", "=", event.id).execute()).toEqual([{ effect: "resync-wallets" }]);

    expect(await evaluateTo(created)).toEqual({ decision: "allow", internal: true, matched: ["trusted-destination"] });
    const after = await cosigner.deliver(assetTransfer({ amount: "1", destination: created }));
    expect(after.verdict).toBe("signed");
  });

  it("a re-sync that fails answers 503 without recording the effect, and the redelivery applies it", async () => {
    const created = `0x${"cd".repeat(20)}`;
    api.setWallets(
      VAULT_ID,
      vaultWallets([
        { id: "new1", address: `0x${"ab".repeat(20)}` },
        { id: "new2", address: created },
      ]),
    );
    const event = walletAddressCreated("new2");
    const delivery = await signedDelivery(event);

    api.failNext(1, 403); // not retried by the client: this sync fails
    const failed = await postDelivery(eventsUrl, delivery);
    expect(failed.status).toBe(503);
    expect(failed.body).toMatchObject({ error: { code: "UNAVAILABLE" } });
    expect(await tdb.handle.db.selectFrom("event_effects").select("effect").where("event_id", "=", event.id).execute()).toEqual([]);
    expect((await evaluateTo(created)).internal).toBe(false);

    expect(await postDelivery(eventsUrl, delivery)).toEqual({ status: 200, body: { received: true, duplicate: true } });
    expect((await evaluateTo(created)).internal).toBe(true);
  });
});
