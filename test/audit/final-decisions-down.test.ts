/**
 * Found by an adversarial review: the down migration of 20261125T1200_final_decisions dropped the
 * table whatever it held. A name whose decision went with an archived month is known to be decided
 * only there; after the down, the read searched `decisions` again, found nothing and decided the
 * name afresh: signed a second time. The down now refuses while the table holds such a name.
 */
import { sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createMigrator } from "../../src/db/migrate.js";
import { assetTransfer } from "../support/bodies.js";
import { CosignerSimulator } from "../support/cosigner.js";
import { createTestDatabase, type TestDatabase } from "../support/postgres.js";
import { startTestService, writeBundle } from "../support/service.js";

const POLICY = `
version: "final-decisions-down.1"
default: deny
rules:
  - id: internal
    decision: allow
    when: {"var": "transfer.destination.internal"}
`;

describe("the down migration of final_decisions", () => {
  let tdb: TestDatabase;
  let service: Awaited<ReturnType<typeof startTestService>>;
  let cosigner: CosignerSimulator;

  beforeAll(async () => {
    tdb = await createTestDatabase();
    service = await startTestService({ database: tdb.handle, policiesDir: writeBundle(POLICY) });
    cosigner = new CosignerSimulator({ webhookUrl: `${service.url}/v1/cosigner/webhook` });
  });
  afterAll(async () => {
    await service?.stop();
    await tdb?.drop();
  });

  it("refuses while a name's decision went with an archived month, so the name is never signed again", async () => {
    const tx = assetTransfer({ amount: "1" });
    expect((await cosigner.deliver(tx)).verdict).toBe("signed");
    const { rows } = await sql<{ month: string }>`
      select tableoid::regclass::text as month from decisions where transaction_name = ${tx.name}`.execute(tdb.handle.db);
    await sql`alter table decisions detach partition ${sql.table(rows[0]!.month)}`.execute(tdb.handle.db);

    const migrator = createMigrator(tdb.handle.db);
    const before = (await migrator.getMigrations()).map((m) => m.name).filter((n) => n < "20261125T1200_final_decisions").at(-1)!;
    const down = await migrator.migrateTo(before);
    expect(down.error).toBeDefined();
    expect(String(down.error)).toMatch(/archived/);

    expect((await cosigner.deliver(tx)).verdict).toBe("canceled");
  });
});
