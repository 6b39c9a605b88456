/** Every SQL example in README.md and docs/*.md runs against the real schema (a migrated Postgres database). */
import { randomUUID } from "node:crypto";
import { sql } from "kysely";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { sealPending } from "../../../src/audit/sealer.js";
import { verifyChain } from "../../../src/audit/verify.js";
import { decisionRow } from "../../support/decision-rows.js";
import { createTestDatabase, type TestDatabase } from "../../support/postgres.js";
import { DOCS, docsFirstBreak, sqlStatements } from "../../support/docs.js";

describe("the docs' SQL examples", () => {
  let tdb: TestDatabase;
  beforeAll(async () => {
    tdb = await createTestDatabase();
  });
  afterAll(async () => tdb?.drop());

  const statements = sqlStatements(DOCS);

  it("finds the examples", () => {
    expect(statements.length).toBeGreaterThanOrEqual(8);
  });

  // A docs `set` (the chain query pins search_path) lasts for its session: reset it before the pool hands the session on.
  it.each(statements.map((s) => [s.split("\n")[0]!, s]))("runs: %s", async (_first, statement) => {
    await tdb.handle.db.connection().execute(async (c) => {
      try {
        await expect(sql.raw(statement).execute(c)).resolves.toBeDefined();
      } finally {
        await sql`reset all`.execute(c);
      }
    });
  });
});

const name = () => `vaults/v1/transactions/${randomUUID()}`;

// The query called to_jsonb under the session's path, and left out reviews and review_actions.
describe("the docs' chain recomputation", () => {
  let tdb: TestDatabase;
  beforeEach(async () => {
    tdb = await createTestDatabase();
  });
  afterEach(async () => tdb?.drop());

  it("names a rewritten decision although the owner's public.to_jsonb(decisions) answers the sealed content", async () => {
    const db = tdb.handle.db;
    const target = decisionRow({ decision: "deny", sign_transaction: false, transaction_name: name() });
    for (const r of [target, decisionRow({ transaction_name: name() })]) await db.insertInto("decisions").values(r).execute();
    expect(await sealPending(db)).toBe(2);
    expect(await docsFirstBreak(db)).toBeUndefined();

    await db.transaction().execute(async (trx) => {
      await sql`set local session_replication_role = replica`.execute(trx);
      await sql`update decisions set decision = 'allow', sign_transaction = true, reasons = '["approved"]' where id = ${target.id}`.execute(trx);
    });
    await sql
      .raw(
        `create function public.to_jsonb(d public.decisions) returns jsonb language sql stable as $$
      select case when d.id = '${target.id}' then pg_catalog.to_jsonb(d) || '{"decision": "deny", "sign_transaction": false, "reasons": []}'::jsonb
        else pg_catalog.to_jsonb(d) end $$`,
      )
      .execute(db);
    expect(await docsFirstBreak(db)).toMatchObject({ break: "changed", row_key: target.id });
  });

  it("reports an intact trail that holds a review and a review action", async () => {
    const db = tdb.handle.db;
    const transaction = name();
    const d = decisionRow({ transaction_name: transaction, decision: "defer", sign_transaction: null, http_status: 503 });
    await db.insertInto("decisions").values(d).execute();
    const review = randomUUID();
    await sql`insert into reviews (id, transaction_name, vault, content_digest, opened_at, expires_at, opened_by, initiator, requirements, explanation)
      values (${review}, ${transaction}, 'vaults/v1', 'x', now(), now() + interval '1 day', ${d.id}, null, '[]', '{}')`.execute(db);
    await sql`insert into review_actions (id, at, transaction_name, content_digest, identity, action, "group")
      values (${randomUUID()}, now(), ${transaction}, 'x', 'alice', 'approved', 'treasury')`.execute(db);
    expect(await sealPending(db)).toBe(3);
    expect((await verifyChain(db)).ok).toBe(true);
    expect(await docsFirstBreak(db)).toBeUndefined();
  });

  it("reports the tail cut off the chain while audit_seals still records it", async () => {
    const db = tdb.handle.db;
    const kept = decisionRow({ transaction_name: name() });
    const cut = decisionRow({ transaction_name: name() });
    await db.insertInto("decisions").values(kept).execute();
    expect(await sealPending(db)).toBe(1);
    await db.insertInto("decisions").values(cut).execute();
    expect(await sealPending(db)).toBe(1);
    await db.transaction().execute(async (trx) => {
      await sql`set local session_replication_role = replica`.execute(trx);
      await sql`delete from decisions where id = ${cut.id}`.execute(trx);
      await sql`delete from audit_chain where position = 2`.execute(trx);
    });
    expect(await docsFirstBreak(db)).toMatchObject({ source: "audit_seals", break: "missing (sealed entry)" });
  });

  it("names an entry whose row_time was moved", async () => {
    const db = tdb.handle.db;
    const row = decisionRow({ transaction_name: name() });
    await db.insertInto("decisions").values(row).execute();
    expect(await sealPending(db)).toBe(1);
    expect(await docsFirstBreak(db)).toBeUndefined();
    await db.transaction().execute(async (trx) => {
      await sql`set local session_replication_role = replica`.execute(trx);
      await sql`update audit_chain set row_time = '2026-10-01T00:00:00Z' where row_key = ${row.id}`.execute(trx);
    });
    expect(await docsFirstBreak(db)).toMatchObject({ row_key: row.id, break: "changed (chain entry)" });
  });

  it("says which json column of a chained table it does not check for JSON null", async () => {
    const db = tdb.handle.db;
    await sql`alter table review_actions add column evidence jsonb`.execute(db);
    expect(await docsFirstBreak(db)).toMatchObject({ source: "review_actions", row_key: "evidence", break: expect.stringContaining("not checked for JSON null") });
  });

  it("says which chained table it does not check", async () => {
    const db = tdb.handle.db;
    await sql`create table extra_audit (id text primary key, at timestamptz not null)`.execute(db);
    await sql`select audit_chain_register('extra_audit', 'id', 'at')`.execute(db);
    expect(await docsFirstBreak(db)).toMatchObject({ source: "extra_audit", break: expect.stringContaining("not checked") });
  });
});

/** The statement of a docs ```sql block that follows the comment line `comment`. */
function docsQuery(comment: string): string {
  const blocks = [...DOCS.matchAll(/```sql\n([\s\S]*?)```/g)].map((m) => m[1]!);
  const statement = blocks.flatMap((b) => b.split(/;\s*(?:\n|$)/)).find((s) => s.includes(`-- ${comment}\n`));
  if (!statement) throw new Error(`the docs lost the query "${comment}"`);
  return statement.replace(/^\s*--.*$/gm, "").trim();
}

describe("the audit guide's first queries give compliance the trail's answer", () => {
  let tdb: TestDatabase;
  const earlier = new Date(Date.now() - 90_000);
  beforeAll(async () => {
    tdb = await createTestDatabase();
    const db = tdb.handle.db;
    const allowed = decisionRow({
      transaction_name: name(),
      decided_at: earlier,
      policy_version: "1",
      matched_rules: JSON.stringify([{ rule: "small-transfers", decision: "allow", transfer: 0 }]),
    });
    const rows = [
      allowed,
      decisionRow({
        transaction_name: name(),
        decided_at: earlier,
        policy_version: "1",
        decision: "deny",
        sign_transaction: false,
        matched_rules: JSON.stringify([{ rule: "usdc-transfer-limit", decision: "deny", transfer: 0 }]),
      }),
      // Decided by no rule: a defer on a stale address-book copy, a conflicting snapshot.
      decisionRow({
        transaction_name: name(),
        policy_version: "2",
        decision: "defer",
        sign_transaction: null,
        http_status: 503,
        reasons: JSON.stringify(["address book copy is stale"]),
      }),
      decisionRow({
        transaction_name: allowed.transaction_name,
        policy_version: "2",
        decision: "deny",
        sign_transaction: false,
        replay_of: allowed.id,
        reasons: JSON.stringify(["conflicting snapshot"]),
      }),
      // A later delivery of the allow, answered as decided: it carries the version that decided it, not one in force now.
      decisionRow({ transaction_name: allowed.transaction_name, policy_version: "1", replayed: true, replay_of: allowed.id, matched_rules: allowed.matched_rules }),
    ];
    for (const r of rows) await db.insertInto("decisions").values(r).execute();
  });
  afterAll(async () => tdb?.drop());

  it("what was decided today counts every decision, those no rule made included", async () => {
    const { rows } = await sql.raw<{ decision: string; count: string }>(docsQuery("What was decided today, by outcome and rule")).execute(tdb.handle.db);
    const byOutcome = new Map<string, number>();
    for (const r of rows) byOutcome.set(r.decision, (byOutcome.get(r.decision) ?? 0) + Number(r.count));
    expect(Object.fromEntries(byOutcome)).toEqual({ allow: 1, deny: 2, defer: 1 });
  });

  it("which policy version decided what counts fresh decisions alone, over the time each version decided", async () => {
    const { rows } = await sql.raw<{ policy_version: string; count: string; max: Date }>(docsQuery("Which policy version decided what")).execute(tdb.handle.db);
    const v1 = rows.find((r) => r.policy_version === "1");
    expect(Number(v1?.count)).toBe(2);
    expect(new Date(v1!.max).getTime()).toBe(earlier.getTime());
  });
});

describe("the audit guide's denials of the last 24 hours", () => {
  let tdb: TestDatabase;
  const destination = "0x52908400098527886E0F7030069857D2E4169EE7";
  const denied = decisionRow({
    transaction_name: name(),
    decision: "deny",
    sign_transaction: false,
    decided_at: new Date(Date.now() - 60_000),
    reasons: JSON.stringify(["A single USDC transfer may not exceed 50,000"]),
    facts: JSON.stringify([{ transfer: { index: 0, destination: { value: destination } } }]),
  });
  const older = decisionRow({
    transaction_name: name(),
    decision: "deny",
    sign_transaction: false,
    decided_at: new Date(Date.now() - 2 * 86_400_000),
    facts: JSON.stringify([{ transfer: { index: 0, destination: { value: destination } } }]),
  });
  beforeAll(async () => {
    tdb = await createTestDatabase();
    const repeat = (of: ReturnType<typeof decisionRow>) =>
      decisionRow({ transaction_name: of.transaction_name, decision: "deny", sign_transaction: false, replayed: true, replay_of: of.id, reasons: of.reasons });
    // Each repeat records no facts of its own (facts = []).
    for (const r of [denied, repeat(denied), older, repeat(older)]) await tdb.handle.db.insertInto("decisions").values(r).execute();
  });
  afterAll(async () => tdb?.drop());

  it("lists each denial decided in the period once, with its destinations, and no repeat", async () => {
    const { rows } = await sql
      .raw<{ transaction_name: string; destinations: string[] }>(docsQuery("Denials with their reasons and destinations in the last 24 hours"))
      .execute(tdb.handle.db);
    expect(rows.map((r) => [r.transaction_name, r.destinations])).toEqual([[denied.transaction_name, [destination]]]);
  });
});
