/**
 * `audit verify --from T` checks every row dated from T on, including one sealed before T because
 * it is dated in the future (a clock far off, or a writer's choice): such a row used to be skipped,
 * so its owner could rewrite it under an anchored checkpoint. On both backends.
 */
import { randomUUID } from "node:crypto";
import { sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { latestCheckpoint } from "../../../src/audit/checkpoint.js";
import { sealPending } from "../../../src/audit/sealer.js";
import { verifyChain } from "../../../src/audit/verify.js";
import type { Db } from "../../../src/database.js";
import { backends } from "../../support/backends.js";
import { decisionRow } from "../../support/decision-rows.js";

describe.each(backends)("audit verify --from on $name", (backend) => {
  let db: Db;
  let close: () => Promise<void>;
  beforeAll(async () => {
    ({ db, close } = await backend.open());
  });
  afterAll(async () => close?.());

  it("checks a future-dated row sealed before --from", async () => {
    // 40 days ahead: in a month created ahead (beyond them, the default partition refuses a row more than a day ahead).
    const future = decisionRow({
      decided_at: new Date(Date.now() + 40 * 86_400_000),
      decision: "deny",
      sign_transaction: false,
      transaction_name: `vaults/v1/transactions/${randomUUID()}`,
    });
    await db.insertInto("decisions").values(future).execute();
    await db.insertInto("decisions").values(decisionRow()).execute();
    expect(await sealPending(db)).toBe(2);
    await clockPastNow();
    const from = new Date();
    await clockPastNow();
    await db.insertInto("decisions").values(decisionRow()).execute();
    expect(await sealPending(db)).toBe(1);
    const anchor = await latestCheckpoint(db);
    expect((await verifyChain(db, { from, checkpoint: anchor! })).ok).toBe(true);

    await db.transaction().execute(async (trx) => {
      await sql`set local session_replication_role = replica`.execute(trx);
      await sql`update decisions set decision = 'allow', sign_transaction = true where id = ${future.id}`.execute(trx);
    });
    const report = await verifyChain(db, { from, checkpoint: anchor! });
    expect(report.ok).toBe(false);
    expect(report.breaks).toEqual([expect.objectContaining({ kind: "changed", source: "decisions", rowKey: future.id })]);
  });
});

/** Once the clock has moved past this millisecond: what was sealed before is earlier than what is read after. */
async function clockPastNow(): Promise<void> {
  const now = Date.now();
  await vi.waitFor(() => expect(Date.now()).toBeGreaterThan(now), { interval: 1 });
}
