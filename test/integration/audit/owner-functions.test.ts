/**
 * `audit verify` trusts no function the schema's owner can redefine: an owner who rewrites a
 * sealed row and replaces `audit_row_digest` (to answer the sealed digest), or rewrites a chain
 * entry and replaces `audit_link_hash` (to answer the recorded hash), is still caught, against an
 * anchored checkpoint. The entry hash verify computes itself is the definition's, for keys with
 * any characters. On both backends.
 */
import { randomUUID } from "node:crypto";
import { sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { latestCheckpoint } from "../../../src/audit/checkpoint.js";
import { linkHash } from "../../../src/audit/link-hash.js";
import { sealPending } from "../../../src/audit/sealer.js";
import { verifyChain } from "../../../src/audit/verify.js";
import type { Db } from "../../../src/database.js";
import { backends } from "../../support/backends.js";
import { decisionRow } from "../../support/decision-rows.js";

async function asOwner(db: Db, statements: ReturnType<typeof sql>[]): Promise<void> {
  await db.transaction().execute(async (trx) => {
    await sql`set local session_replication_role = replica`.execute(trx);
    for (const s of statements) await s.execute(trx);
  });
}

describe.each(backends)("audit verify and the owner's functions, on $name", (backend) => {
  let db: Db;
  let close: () => Promise<void>;
  const ids: string[] = [];

  beforeAll(async () => {
    ({ db, close } = await backend.open());
    for (let i = 0; i < 3; i++) {
      const row = decisionRow({ decision: "deny", sign_transaction: false, transaction_name: `vaults/v1/transactions/${randomUUID()}` });
      await db.insertInto("decisions").values(row).execute();
      ids.push(row.id);
    }
    expect(await sealPending(db)).toBe(3);
  });
  afterAll(async () => close?.());

  it("computes the entry hash as audit_link_hash defines it, whatever the key holds", async () => {
    for (const key of ["plain", 'quote " and \\ slash', "tab\t new\nline \u0001 \u001f", "é ☃ 🚀", "/ <>&'"]) {
      const digest = "ab".repeat(32);
      const prev = "cd".repeat(32);
      const at = "2026-11-25T08:00:00.123456+00:00";
      const { rows } = await sql<{ hash: Uint8Array }>`
        select audit_link_hash('decisions', ${key}, ${at}::timestamptz, decode(${digest}, 'hex'), decode(${prev}, 'hex')) as hash`.execute(db);
      expect(linkHash("decisions", key, at, digest, prev)).toBe(Buffer.from(rows[0]!.hash).toString("hex"));
    }
  });

  it("computes the entry hash as audit_link_hash defines it, whatever the time and the session's timezone", async () => {
    const digest = "ab".repeat(32);
    const prev = "cd".repeat(32);
    for (const at of ["2026-11-25 08:00:00.123456+05:45", "2026-11-25 08:00:00+00", "1999-12-31 23:59:59.5-08", "infinity"]) {
      const [hash, text] = await db.connection().execute(async (c) => {
        try {
          await sql`set timezone = 'America/St_Johns'`.execute(c);
          const h = await sql<{ hash: Uint8Array }>`
            select audit_link_hash('decisions', 'k "1"', ${at}::timestamptz, decode(${digest}, 'hex'), decode(${prev}, 'hex')) as hash`.execute(c);
          await sql`set timezone = 'UTC'`.execute(c);
          const t = await sql<{ text: string }>`select to_jsonb(${at}::timestamptz) #>> '{}' as text`.execute(c);
          return [Buffer.from(h.rows[0]!.hash).toString("hex"), t.rows[0]!.text] as const;
        } finally {
          await sql`reset timezone`.execute(c);
        }
      });
      expect(linkHash("decisions", 'k "1"', text, digest, prev)).toBe(hash);
    }
  });

  // The top-level JSON nulls (a json one padded with blanks) match their sealed digests, and are json_null breaks of their own.
  it("recomputes the sealed digest of a chained table with columns of any type and name", async () => {
    await sql`create table probe_rows (id uuid primary key, at timestamptz not null, "Zed" json, bb jsonb, "we""ird.key" numeric,
      span interval, raw bytea, ints int[], f float8, "ключ" text)`.execute(db);
    await sql`select audit_chain_register('probe_rows', 'id', 'at')`.execute(db);
    const [first, second] = [randomUUID(), randomUUID()];
    await sql`insert into probe_rows (id, at, "Zed", bb, "we""ird.key", span, raw, ints, f, "ключ") values
      (${first}, now(), ' { "k" : null } ', 'null', -12.3400, '1 day 02:03:04.5', decode('00ff', 'hex'), '{1,NULL,3}', 0.1, 'tab\t "q" é'),
      (${second}, now(), ' null ', '{"b": 1, "a": [null, 2.50]}', null, '-3 mons', null, '{}', ${1 / 3}, null)`.execute(db);
    expect(await sealPending(db)).toBe(2);
    const report = await verifyChain(db);
    expect(report).toMatchObject({ breakCount: 2, lastPosition: 5 });
    expect(report.breaks).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ kind: "json_null", source: "probe_rows", rowKey: first, column: "bb" }),
        expect.objectContaining({ kind: "json_null", source: "probe_rows", rowKey: second, column: "Zed" }),
      ]),
    );
    // SQL NULL in their place hashes the same: the trail is intact again (and the suite's later cases see no break of these rows).
    await asOwner(db, [sql`update probe_rows set bb = null where id = ${first}`, sql`update probe_rows set "Zed" = null where id = ${second}`]);
    expect(await verifyChain(db)).toMatchObject({ ok: true, breakCount: 0, lastPosition: 5 });
  });

  it("names a rewritten row although audit_row_digest was replaced to answer the sealed digest", async () => {
    const anchor = await latestCheckpoint(db);
    await asOwner(db, [
      sql`update decisions set decision = 'allow', sign_transaction = true, reasons = '["approved by treasury"]' where id = ${ids[0]}`,
      sql`create or replace function audit_row_digest(r anyelement) returns bytea language sql stable as $$ select coalesce(
        (select c.row_digest from audit_chain c where c.row_key = to_jsonb(r)->>'id' limit 1),
        sha256(convert_to(audit_canonical_row(r)::text, 'UTF8'))) $$`,
    ]);
    const report = await verifyChain(db, { checkpoint: anchor! });
    expect(report.ok).toBe(false);
    expect(report.breaks).toEqual([expect.objectContaining({ kind: "changed", source: "decisions", rowKey: ids[0], position: 1 })]);
  });

  it("names a rewritten chain entry although audit_link_hash was replaced to answer the recorded hash", async () => {
    const anchor = await latestCheckpoint(db);
    await asOwner(db, [
      // The entry now carries the rewritten row's digest, so the row matches it.
      sql`update audit_chain set row_digest = sha256(convert_to(audit_canonical_row(d)::text, 'UTF8'))
        from decisions d where d.id = ${ids[0]} and audit_chain.row_key = d.id::text`,
      sql`create or replace function audit_link_hash(source text, row_key text, row_time timestamptz, row_digest bytea, prev_hash bytea) returns bytea
        language sql stable as $$ select c.hash from audit_chain c where c.source = $1 and c.row_key = $2 and c.prev_hash = $5 $$`,
    ]);
    const report = await verifyChain(db, { checkpoint: anchor! });
    expect(report.ok).toBe(false);
    expect(report.breaks[0]).toMatchObject({ kind: "changed", position: 1, rowKey: ids[0], detail: expect.stringMatching(/chain entry was edited/) });
  });
});
