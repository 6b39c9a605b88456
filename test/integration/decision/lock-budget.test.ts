/**
 * The process's lock budget (src/db/lock-budget.ts, src/db/lock-share.ts) on a real server: the
 * process may hold pool size × (max_locks_per_transaction − 32) advisory lock ids at once, so a
 * decision may take more than one connection's share; only one beyond the whole process's share
 * defers. The service here has a pool of 2 on the run's server (a stock max_locks_per_transaction
 * of 64 gives a share of 64), so both sides of the limit are a batch of a few dozen destinations.
 */
import { sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createLogger } from "../../../src/log.js";
import { batchTransfer } from "../../support/bodies.js";
import { CosignerSimulator } from "../../support/cosigner.js";
import { createTestDatabase, type TestDatabase } from "../../support/postgres.js";
import { startTestService, writeBundle } from "../../support/service.js";

const POOL = 2;

const POLICY = `
version: "lock-budget.1"
default: deny
windows:
  - {name: per_destination, duration: 1h, groupBy: [destination], measure: count}
rules:
  - id: transfers
    decision: allow
    when: {"==": [{"var": "tx.kind"}, "assetTransfer"]}
`;

describe(`the lock budget of a process with a pool of ${POOL} connections`, () => {
  let tdb: TestDatabase;
  let service: Awaited<ReturnType<typeof startTestService>>;
  let cosigner: CosignerSimulator;
  const logged: Record<string, unknown>[] = [];
  /** The server's max_locks_per_transaction, and the process's share: its pool's, less each connection's reserve of 32. */
  let maxLocks: number;
  let share: number;

  beforeAll(async () => {
    tdb = await createTestDatabase({ maxConnections: POOL });
    const { rows } = await sql<{ l: number }>`select current_setting('max_locks_per_transaction')::int as l`.execute(tdb.handle.db);
    maxLocks = rows[0]!.l;
    share = POOL * (maxLocks - 32);
    const logger = createLogger({ level: "info", write: (line) => logged.push(JSON.parse(line) as Record<string, unknown>) });
    service = await startTestService({ database: tdb.handle, policiesDir: writeBundle(POLICY), logger });
    cosigner = new CosignerSimulator({ webhookUrl: `${service.url}/v1/cosigner/webhook` });
  });
  afterAll(async () => {
    await service?.stop();
    await tdb?.drop();
  });

  const charges = async (name: string) => (await tdb.handle.db.selectFrom("velocity_charges").select("id").where("transaction_name", "=", name).execute()).length;

  it("signs a batch whose lock ids exceed one connection's share but fit the process's", async () => {
    const destinations = maxLocks - 32 + 8; // one connection's share is maxLocks − 32 lock ids, the name's included
    expect(destinations + 1).toBeLessThanOrEqual(share);
    const body = batchTransfer(destinations, 1);
    expect((await cosigner.deliver(body)).verdict).toBe("signed");
    expect(await charges(body.name)).toBe(destinations);
  });

  it("defers, naming why and charging nothing, a batch whose lock ids exceed the process's whole share", async () => {
    const destinations = share + 10;
    const body = batchTransfer(destinations, 10_000);
    const delivery = await cosigner.deliver(body);
    const row = await tdb.handle.db.selectFrom("decisions").select(["decision", "reasons"]).where("transaction_name", "=", body.name).executeTakeFirstOrThrow();
    expect({ status: delivery.status, row, charges: await charges(body.name) }).toEqual({
      status: 503,
      row: {
        decision: "defer",
        reasons: [
          `too many locks for this process's share of the database's lock table (${destinations + 1} > ${share}): the database's max_locks_per_transaction is too low for this transaction's velocity window groups`,
        ],
      },
      charges: 0,
    });
  });

  it("says at start the max_locks_per_transaction the window-group cap needs with this pool: ceil((cap + 1) / pool) + 32", () => {
    const needed = Math.ceil((256 + 1) / POOL) + 32;
    const warning = logged.find((entry) => entry.setting === "max_locks_per_transaction");
    expect(maxLocks).toBeLessThan(needed); // the run's server is stock (64): 161 is needed for a pool of 2
    expect(warning).toMatchObject({ level: "warn", value: maxLocks, needed, maxWindowGroups: 256, connections: POOL, lockBudget: share });
    expect(logged.find((entry) => entry.msg === "database lock budget of this process")).toMatchObject({ lockBudget: share, connections: POOL, maxLocksPerTransaction: maxLocks });
  });
});
