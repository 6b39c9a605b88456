/**
 * With address-book sync configured and the database gone: `/readyz` still answers 503 with every
 * check's reason (the sync status is read from the database, and its failure must not turn the
 * answer into a 500), and `GET /v1/policy` still shows the active policy.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { VAULT } from "../support/bodies.js";
import { fakeData, startFakeCustodyApi, type FakeCustodyApi } from "../support/fake-custody-api.js";
import { createTestDatabase, type TestDatabase } from "../support/postgres.js";
import { createTestServiceAccount, writeTempPem } from "../support/service-account.js";
import { startTestService } from "../support/service.js";
import { startTcpProxy, type TcpProxy } from "../support/tcp-proxy.js";

const VAULT_ID = VAULT.slice("vaults/".length);

describe("address book end to end: the database goes away", () => {
  let tdb: TestDatabase;
  let proxy: TcpProxy;
  let api: FakeCustodyApi;
  let service: Awaited<ReturnType<typeof startTestService>>;
  let key: { path: string; remove(): void };

  beforeAll(async () => {
    tdb = await createTestDatabase();
    const target = new URL(tdb.url);
    proxy = await startTcpProxy(target.hostname, Number(target.port));
    const viaProxy = new URL(tdb.url);
    viaProxy.host = `127.0.0.1:${proxy.port}`;
    const account = createTestServiceAccount();
    api = await startFakeCustodyApi({ serviceAccountEmail: account.email, publicKey: account.publicKey });
    api.setAddressBook(VAULT_ID, [fakeData.entry(VAULT_ID, 1)]);
    api.setWallets(VAULT_ID, []);
    key = writeTempPem(account.privateKeyPem);
    service = await startTestService({
      databaseUrl: viaProxy.toString(),
      env: {
        COUNTERSIGN_API_URL: api.baseUrl,
        COUNTERSIGN_SERVICE_ACCOUNT_EMAIL: account.email,
        COUNTERSIGN_SERVICE_ACCOUNT_KEY_FILE: key.path,
        COUNTERSIGN_VAULTS: VAULT_ID,
        COUNTERSIGN_ADDRESS_BOOK_REFRESH: "1h",
      },
    });
    expect((await service.background.sync!.syncAll()).map((r) => r.ok)).toEqual([true]);
  });
  afterAll(async () => {
    await service?.stop();
    await proxy?.close();
    await api?.close();
    await tdb?.drop();
    key?.remove();
  });

  const get = async (path: string) => {
    const response = await fetch(`${service.url}${path}`);
    return { status: response.status, body: (await response.json()) as Record<string, unknown> };
  };

  it("readiness names both problems, /v1/policy still answers, and both recover", async () => {
    expect((await get("/readyz")).status).toBe(200);
    proxy.cut();

    expect(await get("/readyz")).toMatchObject({
      status: 503,
      body: { status: "not ready", checks: { database: "database is not reachable", addressBook: expect.stringMatching(/cannot be read/) } },
    });
    const policy = await get("/v1/policy");
    expect(policy.status).toBe(200);
    expect(policy.body).toMatchObject({
      version: service.policy.current().version,
      addressBook: { configured: true, vaults: null, error: expect.stringMatching(/cannot be read/) },
    });

    proxy.restore();
    // The pool drops its broken connections on first use after the cut: a few bounded tries.
    let ready = await get("/readyz");
    for (let attempt = 0; ready.status !== 200 && attempt < 20; attempt++) ready = await get("/readyz");
    expect(ready.body.checks).toEqual({ database: "ok", schema: "ok", velocityWindowClaims: "ok", clock: "ok", addressBook: "ok" });
    expect(((await get("/v1/policy")).body.addressBook as { vaults: unknown[] }).vaults).toHaveLength(1);
  });
});
