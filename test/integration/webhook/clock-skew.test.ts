/**
 * A replica whose clock is out of step with the database's decides nothing (src/db/clock-check.ts).
 * Windows are read and charges stamped by each process's own clock: one running ahead drops
 * charges out of its windows early, one running behind stamps charges that drop out of the other
 * replicas' windows early, and a wallet could send its limit twice within less than a window.
 * Here two replicas share one database; one runs 10 minutes ahead.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CosignerSimulator } from "../../support/cosigner.js";
import { assetTransfer } from "../../support/bodies.js";
import { createTestDatabase, type TestDatabase } from "../../support/postgres.js";
import { startTestService } from "../../support/service.js";
import { openDatabase } from "../../../src/database.js";
import { startClockCheck } from "../../../src/db/clock-check.js";
import { silentLogger } from "../../../src/log.js";

const TEN_MINUTES = 10 * 60_000;

describe("a replica whose clock is out of step with the database's", () => {
  let tdb: TestDatabase;
  let skewMs = TEN_MINUTES;
  let inStep: Awaited<ReturnType<typeof startTestService>>;
  let ahead: Awaited<ReturnType<typeof startTestService>>;

  beforeAll(async () => {
    tdb = await createTestDatabase();
    inStep = await startTestService({ database: tdb.handle });
    ahead = await startTestService({ database: tdb.handle, hostNow: () => Date.now() + skewMs });
  });
  afterAll(async () => {
    await ahead?.stop();
    await inStep?.stop();
    await tdb?.drop();
  });

  it("defers every delivery (503, nothing recorded) and is not ready, saying why", async () => {
    const body = assetTransfer();
    const answer = await new CosignerSimulator({ webhookUrl: `${ahead.url}/v1/cosigner/webhook` }).deliver(body);
    expect(answer.status).toBe(503);
    expect(answer.verdict).toBe("pending");
    expect(answer.body).toMatchObject({ error: { code: "DEFERRED", message: "this replica's clock is out of step with the database's; the transaction stays pending" } });
    const ready = await fetch(`${ahead.url}/readyz`);
    expect(ready.status).toBe(503);
    expect(await ready.json()).toMatchObject({ checks: { clock: expect.stringMatching(/^this process's clock is 600\.0 s ahead of the database's/) } });
    const rows = await tdb.handle.db.selectFrom("decisions").select("id").where("transaction_name", "=", body.name).execute();
    expect(rows).toEqual([]);
    // The replica in step decides it.
    expect((await new CosignerSimulator({ webhookUrl: `${inStep.url}/v1/cosigner/webhook` }).deliver(body)).verdict).toBe("signed");
    expect((await fetch(`${inStep.url}/readyz`)).status).toBe(200);
  });

  it("decides again once its clock is back in step", async () => {
    skewMs = 0;
    await ahead.background.clock.check();
    expect((await new CosignerSimulator({ webhookUrl: `${ahead.url}/v1/cosigner/webhook` }).deliver(assetTransfer())).verdict).toBe("signed");
    expect((await fetch(`${ahead.url}/readyz`)).status).toBe(200);
  });

  it("is judged the same way on the embedded database, behind as well as ahead", async () => {
    const handle = await openDatabase({ dataDir: ":memory:" });
    try {
      let offset = -90_000;
      const check = startClockCheck({ db: handle.db, logger: silentLogger, toleranceMs: 2_000, hostNow: () => Date.now() + offset });
      await check.check();
      expect(check.problem()).toMatch(/^this process's clock is 90\.0 s behind the database's/);
      offset = 0;
      await check.check();
      expect(check.problem()).toBeNull();
      check.stop();
    } finally {
      await handle.close();
    }
  });
});
