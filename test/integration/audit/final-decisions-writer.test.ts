/**
 * The writer role could INSERT into it, so a row of its own choosing became a name's "final
 * decision" without being one. A name the policy only deferred, a `decisions` row the writer marked
 * as a repeat (`replayed`, so neither the trigger nor replay nor the ledger's history takes it for a
 * decision) and a finals row pointing at it: the next delivery was signed as a repeat of an allow
 * nobody decided. A finals row naming no decision at all also let the writer's charges refer to no
 * decision (the charges' check trusts final_decisions first). Now only the trigger, with the
 * owner's rights, writes the table (`final_decisions_record`, migrations/sql/functions/decisions.sql).
 */
import { randomUUID } from "node:crypto";
import { sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { DatabaseHandle } from "../../../src/database.js";
import { assetTransfer } from "../../support/bodies.js";
import { CosignerSimulator } from "../../support/cosigner.js";
import { decisionRow } from "../../support/decision-rows.js";
import { createTestDatabase, type TestDatabase } from "../../support/postgres.js";
import { startTestService, writeBundle } from "../../support/service.js";
import { createLogin, type Login } from "../../support/audit/logins.js";

const HOLD = `
version: "final-decisions-writer.1"
default: deny
rules:
  - id: hold
    decision: defer
    reason: held for a person
    when: {"var": "transfer.destination.internal"}
`;

describe("final_decisions and the writer role", () => {
  let tdb: TestDatabase;
  let login: Login;
  let writer: DatabaseHandle;
  let service: Awaited<ReturnType<typeof startTestService>>;
  let cosigner: CosignerSimulator;

  beforeAll(async () => {
    tdb = await createTestDatabase();
    login = await createLogin("countersign_writer");
    writer = await login.open(tdb.url);
    service = await startTestService({ database: tdb.handle, policiesDir: writeBundle(HOLD) });
    cosigner = new CosignerSimulator({ webhookUrl: `${service.url}/v1/cosigner/webhook` });
  });
  afterAll(async () => {
    await service?.stop();
    await writer?.close();
    await tdb?.drop();
    await login?.drop();
  });

  it("cannot make a deferred name's next delivery signed by pointing final_decisions at a row of its choosing", async () => {
    const tx = assetTransfer({ amount: "1" });
    expect((await cosigner.deliver(tx)).verdict).toBe("pending");
    const deferral = await tdb.handle.db.selectFrom("decisions").select(["id", "content_digest"]).where("transaction_name", "=", tx.name).executeTakeFirstOrThrow();
    // A "repeat" of an allow, by the writer: no final decision for the trigger, replay or the ledger.
    const forged = decisionRow({
      transaction_name: tx.name,
      vault: tx.name.split("/").slice(0, 2).join("/"),
      replayed: true,
      replay_of: deferral.id,
      content_digest: deferral.content_digest,
    });
    await writer.db.insertInto("decisions").values(forged).execute();
    const pointed = sql`insert into final_decisions (transaction_name, decision_id, decided_at) values (${tx.name}, ${forged.id}::uuid, ${forged.decided_at})`.execute(writer.db);
    await expect(pointed).rejects.toThrow(/permission denied for table final_decisions/);
    const again = await cosigner.deliver(tx);
    expect(again.verdict).toBe("pending");
  });

  it("cannot make a charge refer to no decision through a finals row of its own", async () => {
    const name = "vaults/v1/transactions/no-decision";
    const ghost = randomUUID();
    const pointed = sql`insert into final_decisions (transaction_name, decision_id, decided_at) values (${name}, ${ghost}::uuid, now())`.execute(writer.db);
    await expect(pointed).rejects.toThrow(/permission denied for table final_decisions/);
    await sql`insert into velocity_groups (group_hash, group_key, first_charged_at) values (sha256('g'::bytea), 'g', now()) on conflict do nothing`.execute(tdb.handle.db);
    await expect(
      sql`
      insert into velocity_charges (decision_id, transaction_name, vault, transfer_index, group_hash, amount, charged_at)
      values (${ghost}::uuid, ${name}, 'vaults/v1', 0, sha256('g'::bytea), 1, now())`.execute(writer.db),
    ).rejects.toThrow(/refers to no decision/);
  });

  it("still has each final decision the writer records written into final_decisions by the trigger", async () => {
    const row = decisionRow({ transaction_name: "vaults/v1/transactions/by-the-writer" });
    await writer.db.insertInto("decisions").values(row).execute();
    const { rows } = await sql<{ decision_id: string }>`select decision_id from final_decisions where transaction_name = ${row.transaction_name}`.execute(writer.db);
    expect(rows).toEqual([{ decision_id: row.id }]);
  });
});
