import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CosignerSimulator } from "../../support/cosigner.js";
import { assetTransfer } from "../../support/bodies.js";
import { createTestDatabase, type TestDatabase } from "../../support/postgres.js";
import { startTestService } from "../../support/service.js";
import { startTcpProxy, type TcpProxy } from "../../support/tcp-proxy.js";

const ADMIN_TOKEN = "admin-token-for-database-down";

describe("co-signer webhook when the database goes away", () => {
  let tdb: TestDatabase;
  let proxy: TcpProxy;
  let service: Awaited<ReturnType<typeof startTestService>>;
  let cosigner: CosignerSimulator;

  beforeAll(async () => {
    tdb = await createTestDatabase();
    const target = new URL(tdb.url);
    proxy = await startTcpProxy(target.hostname, Number(target.port));
    const viaProxy = new URL(tdb.url);
    viaProxy.host = `127.0.0.1:${proxy.port}`;
    service = await startTestService({ databaseUrl: viaProxy.toString(), env: { COUNTERSIGN_ADMIN_TOKEN: ADMIN_TOKEN } });
    cosigner = new CosignerSimulator({ webhookUrl: `${service.url}/v1/cosigner/webhook` });
  });
  afterAll(async () => {
    await service?.stop();
    await proxy?.close();
    await tdb?.drop();
  });

  it("defers (503, never 200) while it is down, and decides again once it is back, without a restart", async () => {
    expect((await cosigner.deliver(assetTransfer())).verdict).toBe("signed");

    proxy.cut();
    const whileDown = await Promise.all(Array.from({ length: 5 }, () => cosigner.deliver(assetTransfer())));
    for (const d of whileDown) {
      expect(d.status).toBe(503);
      expect(d.verdict).toBe("pending");
      expect(d.body).toMatchObject({ error: { code: "DEFERRED" } });
      expect(JSON.stringify(d.body)).not.toMatch(/ECONN|timeout|pg|postgres/i); // no internal detail leaks
    }
    const dryRun = await fetch(`${service.url}/v1/evaluate`, {
      method: "POST",
      headers: { authorization: `Bearer ${ADMIN_TOKEN}` },
      body: JSON.stringify(assetTransfer()),
    });
    expect(dryRun.status).toBe(503);
    expect(await dryRun.json()).toMatchObject({ error: { code: "UNAVAILABLE" } });
    const ready = await fetch(`${service.url}/readyz`);
    expect(ready.status).toBe(503);
    expect(await ready.json()).toMatchObject({ checks: { database: "database is not reachable" } });

    proxy.restore();
    const body = assetTransfer();
    let after = await cosigner.deliver(body);
    for (let attempt = 0; after.status !== 200 && attempt < 20; attempt++) after = await cosigner.deliver(body);
    expect(after.verdict).toBe("signed");
    expect((await fetch(`${service.url}/readyz`)).status).toBe(200);
    const rows = await tdb.handle.db.selectFrom("decisions").select("decision").where("transaction_name", "=", body.name).execute();
    expect(rows.map((r) => r.decision)).toEqual(["allow"]);
  });
});
