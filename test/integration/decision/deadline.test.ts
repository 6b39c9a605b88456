/**
 * COUNTERSIGN_DECISION_TIMEOUT: a decision held up past its deadline — by a
 * lock, by a pool with no free connection, by the embedded database's single connection — answers
 * 503 at the deadline, and the transaction it had started is rolled back, never committed once the
 * hold is released. Each hold lasts until the answer arrives or HOLD_MS (well past the deadline),
 * whichever is first: a service without a deadline would wait, then decide and answer 200.
 */
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openDatabase, type DatabaseHandle } from "../../../src/database.js";
import { migrateToLatest } from "../../../src/db/migrate.js";
import { assetTransfer } from "../../support/bodies.js";
import { CosignerSimulator, type Delivery } from "../../support/cosigner.js";
import { createTestDatabase, type TestDatabase } from "../../support/postgres.js";
import { startTestService } from "../../support/service.js";

const DEADLINE = "1s";
const HOLD_MS = 6_000;

type Service = Awaited<ReturnType<typeof startTestService>>;

/**
 * Delivers `body` once `hold` keeps the database busy (it calls `held` when its hold is in place);
 * the hold ends at the answer or after HOLD_MS.
 */
async function deliverDuringHold(cosigner: CosignerSimulator, body: unknown, hold: (released: Promise<void>, held: () => void) => Promise<void>): Promise<Delivery> {
  let release!: () => void;
  const released = new Promise<void>((resolve) => (release = resolve));
  let held!: () => void;
  const inPlace = new Promise<void>((resolve) => (held = resolve));
  const timer = setTimeout(release, HOLD_MS);
  const holding = hold(released, held);
  try {
    // A delivery sent before the hold is in place would be decided at once (a race the test lost
    // once decisions got faster).
    await Promise.race([inPlace, holding]);
    return await cosigner.deliver(body);
  } finally {
    release();
    clearTimeout(timer);
    await holding;
  }
}

async function rowsOf(db: DatabaseHandle["db"], name: string) {
  return db.selectFrom("decisions").select(["decision"]).where("transaction_name", "=", name).execute();
}

describe("decision deadline on a Postgres server", () => {
  let tdb: TestDatabase;
  let service: Service;
  let cosigner: CosignerSimulator;

  beforeAll(async () => {
    tdb = await createTestDatabase({ maxConnections: 2 });
    service = await startTestService({ database: tdb.handle, env: { COUNTERSIGN_DECISION_TIMEOUT: DEADLINE } });
    cosigner = new CosignerSimulator({ webhookUrl: `${service.url}/v1/cosigner/webhook` });
  });
  afterAll(async () => {
    await service?.stop();
    await tdb?.drop();
  });

  it("a lock held past the deadline: 503 at the deadline, nothing committed after the lock is freed", async () => {
    const body = assetTransfer();
    const delivery = await deliverDuringHold(cosigner, body, async (released, held) => {
      const other = new pg.Client({ connectionString: tdb.url });
      await other.connect();
      await other.query("select pg_advisory_lock(hashtextextended($1, 0))", [`decision:${body.name}`]);
      held();
      await released;
      await other.end();
    });
    expect(delivery.status).toBe(503);
    expect(delivery.body).toMatchObject({ error: { code: "DEFERRED" } });
    expect(await rowsOf(tdb.handle.db, body.name)).toEqual([]);
    // The service decides normally again once nothing holds it up.
    expect((await cosigner.deliver(body)).verdict).toBe("signed");
  });

  it("every pooled connection busy past the deadline: 503, and the late checkout decides nothing", async () => {
    const body = assetTransfer();
    const delivery = await deliverDuringHold(cosigner, body, async (released, held) => {
      // Both connections of the pool of 2 are taken by transactions that wait for the release.
      let open = 0;
      const holdOne = () => {
        if (++open === 2) held();
        return released;
      };
      await Promise.all([0, 1].map(() => tdb.handle.db.transaction().execute(holdOne)));
    });
    expect(delivery.status).toBe(503);
    await tdb.handle.db.selectFrom("decisions").select("id").limit(1).execute();
    expect(await rowsOf(tdb.handle.db, body.name)).toEqual([]);
    expect((await cosigner.deliver(body)).verdict).toBe("signed");
  });
});

describe("decision deadline on the embedded PGlite", () => {
  let handle: DatabaseHandle;
  let service: Service;
  let cosigner: CosignerSimulator;

  beforeAll(async () => {
    handle = await openDatabase({ dataDir: ":memory:" });
    await migrateToLatest(handle.db);
    service = await startTestService({ database: handle, env: { COUNTERSIGN_DECISION_TIMEOUT: DEADLINE } });
    cosigner = new CosignerSimulator({ webhookUrl: `${service.url}/v1/cosigner/webhook` });
  });
  afterAll(async () => {
    await service?.stop();
    await handle?.close();
  });

  it("its one connection busy past the deadline: 503, and the queued transaction is rolled back, not committed", async () => {
    const body = assetTransfer();
    const delivery = await deliverDuringHold(cosigner, body, async (released, held) => {
      await handle.db.transaction().execute(() => {
        held();
        return released;
      });
    });
    expect(delivery.status).toBe(503);
    // The connection is handed out in order: once this read runs, the decision's transaction is over.
    expect(await rowsOf(handle.db, body.name)).toEqual([]);
    expect((await cosigner.deliver(body)).verdict).toBe("signed");
  });
});
