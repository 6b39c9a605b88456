/**
 * Verify refuses a trail table that filters what a role reads: row security (unless the role
 * bypasses it) and rewrite rules (the owner hid a forged, never-sealed "allow"
 * from the auditor role with a policy; the service read it, the auditor's verify said intact).
 */
import { randomUUID } from "node:crypto";
import { sql } from "kysely";
import { afterAll, beforeEach, afterEach, describe, expect, it } from "vitest";
import { sealPending } from "../../../src/audit/sealer.js";
import { verifyChain, VerifyRefused } from "../../../src/audit/verify.js";
import type { DatabaseHandle } from "../../../src/database.js";
import { decisionRow } from "../../support/decision-rows.js";
import { createTestDatabase, type TestDatabase } from "../../support/postgres.js";
import { asSuperuser, createLogin, type Login } from "../../support/audit/logins.js";

const name = () => `vaults/v1/transactions/${randomUUID()}`;

async function refusal(run: Promise<unknown>): Promise<unknown> {
  return run.then(
    () => null,
    (e: unknown) => e,
  );
}

describe("audit verify and row security on the trail", () => {
  let tdb: TestDatabase;
  let login: Login | undefined;
  let auditor: DatabaseHandle | undefined;
  beforeEach(async () => {
    tdb = await createTestDatabase();
    await tdb.handle.db
      .insertInto("decisions")
      .values(decisionRow({ transaction_name: name() }))
      .execute();
    expect(await sealPending(tdb.handle.db)).toBe(1);
  });
  afterEach(async () => {
    await auditor?.close();
    auditor = undefined;
    await tdb?.drop();
  });
  afterAll(async () => login?.drop());

  it("refuses a role that row security filters, where a role that bypasses it names the hidden row", async () => {
    const db = tdb.handle.db;
    const forged = decisionRow({ decided_at: new Date(Date.now() - 3_600_000), transaction_name: name() });
    // The owner's forged allow, with a written_xid the sealer never looks at again.
    await sql`insert into decisions (id, decided_at, transaction_name, vault, decision, sign_transaction, http_status, replayed, policy_version,
        policy_digest, matched_rules, reasons, facts, transaction, content_digest, request_id, duration_ms, written_xid)
      values (${forged.id}, ${forged.decided_at}, ${forged.transaction_name}, 'vaults/v1', 'allow', true, 200, false, 'test', ${forged.policy_digest},
        '[]', '[]', '[]', '{}', 'x', ${forged.request_id}, 1, '1')`.execute(db);
    await sql
      .raw(
        `alter table decisions enable row level security;
      create policy everyone on decisions for select using (true);
      create policy not_for_auditors on decisions as restrictive for select to countersign_auditor using (id <> '${forged.id}')`,
      )
      .execute(db);
    expect(await sealPending(db)).toBe(0);
    expect((await verifyChain(db)).breaks[0]).toMatchObject({ kind: "inserted", rowKey: forged.id });

    login ??= await createLogin("countersign_auditor");
    auditor = await login.open(tdb.url);
    const refused = await refusal(verifyChain(auditor.db));
    expect(refused).toBeInstanceOf(VerifyRefused);
    expect(refused).toMatchObject({ code: "row_security", message: expect.stringContaining("public.decisions") });

    await asSuperuser((c) => c.query(`alter role ${login!.name} bypassrls`));
    await auditor.close();
    auditor = await login.open(tdb.url);
    expect((await verifyChain(auditor.db)).breaks[0]).toMatchObject({ kind: "inserted", rowKey: forged.id });
  });

  it("refuses a policy on a chain table even while row security is off", async () => {
    await sql`create policy everything on audit_chain for select using (true)`.execute(tdb.handle.db);
    login ??= await createLogin("countersign_auditor");
    auditor = await login.open(tdb.url);
    await asSuperuser((c) => c.query(`alter role ${login!.name} nobypassrls`));
    expect(await refusal(verifyChain(auditor.db))).toMatchObject({ code: "row_security" });
  });

  it("refuses a rewrite rule on a chained table, whoever verifies", async () => {
    await sql`create rule events_elsewhere as on insert to events do instead nothing`.execute(tdb.handle.db);
    expect(await refusal(verifyChain(tdb.handle.db))).toMatchObject({ code: "rewrite_rules", message: expect.stringContaining("events_elsewhere") });
  });
});
