/**
 * A second row with a sealed decision's id (a "twin", dated a second earlier, saying allow where
 * the sealed row said deny) is never sealed, since the chain holds its key: `audit verify` must
 * name it. And the writer role may not choose a row's `seq` (`overriding system value`) or
 * `written_xid`, so a twin it inserts comes after the row it copies and the decision read keeps
 * answering with the decision actually made first.
 */
import { randomUUID } from "node:crypto";
import { sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sealPending } from "../../../src/audit/sealer.js";
import { verifyChain } from "../../../src/audit/verify.js";
import type { Db } from "../../../src/database.js";
import { backends } from "../../support/backends.js";
import { decisionRow } from "../../support/decision-rows.js";
import { writerDatabase } from "../../support/audit/logins.js";

function denied() {
  return decisionRow({ decision: "deny", sign_transaction: false, transaction_name: `vaults/v1/transactions/${randomUUID()}` });
}

/** The same row dated a second earlier, saying allow. */
function twinOf(row: ReturnType<typeof denied>) {
  return { ...row, decided_at: new Date(row.decided_at.getTime() - 1_000), decision: "allow" as const, sign_transaction: true, request_id: randomUUID() };
}

describe.each(backends)("audit verify and a twin of a sealed row, on $name", (backend) => {
  let db: Db;
  let close: () => Promise<void>;
  beforeAll(async () => {
    ({ db, close } = await backend.open());
  });
  afterAll(async () => close?.());

  it("names the sealed key that a second row carries", async () => {
    const row = denied();
    await db.insertInto("decisions").values(row).execute();
    expect(await sealPending(db)).toBe(1);
    const twin = twinOf(row);
    await sql`insert into decisions (id, seq, decided_at, transaction_name, vault, decision, sign_transaction, http_status, replayed,
        policy_version, policy_digest, matched_rules, reasons, facts, transaction, content_digest, request_id, duration_ms)
      overriding system value
      values (${twin.id}, 0, ${twin.decided_at}, ${twin.transaction_name}, ${twin.vault}, 'allow', true, 200, false,
        'test', ${twin.policy_digest}, '[]', '[]', '[]', '{}', 'x', ${twin.request_id}, 1)`.execute(db);
    expect(await sealPending(db)).toBe(0);
    const report = await verifyChain(db);
    expect(report.ok).toBe(false);
    expect(report.breaks).toEqual([expect.objectContaining({ kind: "inserted", position: 1, source: "decisions", rowKey: row.id })]);
    expect(report.breaks[0]?.detail).toMatch(/2 rows carry this key/);
  });
});

describe("the writer role and a row's order", () => {
  const suite = writerDatabase();

  it("refuses the writer a seq or written_xid of its choosing, so the read answers with the first decision", async () => {
    const row = denied();
    await suite.writer.db.insertInto("decisions").values(row).execute();
    const twin = twinOf(row);
    const columns = sql`id, decided_at, transaction_name, vault, decision, sign_transaction, http_status, replayed,
      policy_version, policy_digest, matched_rules, reasons, facts, transaction, content_digest, request_id, duration_ms`;
    const values = sql`${twin.id}, ${twin.decided_at}, ${twin.transaction_name}, ${twin.vault}, 'allow', true, 200, false,
      'test', ${twin.policy_digest}, '[]', '[]', '[]', '{}', 'x', ${twin.request_id}, 1`;
    await expect(sql`insert into decisions (seq, ${columns}) overriding system value values (0, ${values})`.execute(suite.writer.db)).rejects.toThrow(
      /permission denied for table decisions/,
    );
    await expect(sql`insert into decisions (written_xid, ${columns}) values ('1', ${values})`.execute(suite.writer.db)).rejects.toThrow(/permission denied for table decisions/);
    await expect(
      sql`insert into events (seq, id, received_at, type, resource, payload, body, signature) overriding system value
      values (0, ${randomUUID()}, now(), 'TRANSACTION_CREATED', 'vaults/v1/transactions/x', '{}', '\\x7b7d'::bytea, 'sig')`.execute(suite.writer.db),
    ).rejects.toThrow(/permission denied for table events/);

    // A twin the writer may insert takes the sequence's next seq, after the row it copies.
    await sql`insert into decisions (${columns}) values (${values})`.execute(suite.writer.db);
    const args = JSON.stringify({ name: row.transaction_name, failedStates: "{}", evaluate: false });
    const { rows } = await sql<{ final: { id: string; decision: string } }>`
      select final from countersign_decision_read(${args}::jsonb, 5000)`.execute(suite.writer.db);
    expect(rows[0]?.final).toMatchObject({ id: row.id, decision: "deny" });
  });
});
