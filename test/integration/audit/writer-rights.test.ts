/**
 * The writer role writes audit rows, never the chain's bookkeeping: no INSERT on audit_sources,
 * audit_chain or audit_seals (a forged source stopped the sealer for good, a forged seal blinded
 * verify), sealing only through audit_seal with its owner's rights; nothing on partitions created
 * later and only SELECT on the views (the default privileges gave it UPDATE and DELETE there);
 * and at most twelve months of partitions ahead.
 */
import { sql } from "kysely";
import { describe, expect, it } from "vitest";
import { sealPending } from "../../../src/audit/sealer.js";
import { decisionRow } from "../../support/decision-rows.js";
import { writerDatabase } from "../../support/audit/logins.js";

function monthName(offset: number): string {
  const d = new Date();
  d.setUTCDate(1);
  d.setUTCMonth(d.getUTCMonth() + offset);
  return `decisions_${d.getUTCFullYear()}_${String(d.getUTCMonth() + 1).padStart(2, "0")}`;
}

describe("the writer role and the chain's bookkeeping", () => {
  const suite = writerDatabase();

  it("refuses the writer INSERT on audit_sources, audit_chain and audit_seals", async () => {
    await expect(
      sql`insert into audit_sources (source, key_column, key_type, time_column)
      values ('public.review_actions', 'id', 'uuid', 'at')`.execute(suite.writer.db),
    ).rejects.toThrow(/permission denied for table audit_sources/);
    await expect(
      sql`insert into audit_seals (id, sealed_at, horizon, first_position, last_position, last_hash) overriding system value
      values (9223372036854775807, '-infinity', '0', 1, 1, '\\x00')`.execute(suite.writer.db),
    ).rejects.toThrow(/permission denied for table audit_seals/);
    await expect(
      sql`insert into audit_chain (position, source, row_key, row_time, row_digest, prev_hash, hash, sealed_at)
      values (1, 'decisions', 'x', now(), sha256(''), sha256(''), sha256(''), now())`.execute(suite.writer.db),
    ).rejects.toThrow(/permission denied for table audit_chain/);
  });

  it("seals as the writer through audit_seal, which runs with its owner's rights and a pinned search_path", async () => {
    const row = decisionRow();
    await suite.writer.db.insertInto("decisions").values(row).execute();
    expect(await sealPending(suite.writer.db)).toBe(1);
    const { rows } = await sql<{ definer: boolean; config: string[] }>`
      select prosecdef as definer, proconfig as config from pg_proc where oid = 'audit_seal(integer)'::regprocedure`.execute(suite.tdb.handle.db);
    expect(rows[0]?.definer).toBe(true);
    expect(rows[0]?.config).toContain("search_path=pg_catalog, public, pg_temp");
  });

  it("creates at most twelve months ahead, and grants the writer nothing on new partitions and only SELECT on views", async () => {
    await sql`select decisions_ensure_partitions(40)`.execute(suite.writer.db);
    const { rows: parts } = await sql<{ name: string; writable: boolean }>`
      select c.relname as name, has_table_privilege(${suite.login.name}, c.oid, 'SELECT, INSERT, UPDATE, DELETE') as writable
      from pg_inherits i join pg_class c on c.oid = i.inhrelid where i.inhparent = 'decisions'::regclass`.execute(suite.tdb.handle.db);
    const months = parts
      .map((p) => p.name)
      .filter((n) => n !== "decisions_default")
      .sort();
    expect(months.at(-1)).toBe(monthName(12));
    expect(parts.filter((p) => p.writable)).toEqual([]);
    const { rows: views } = await sql<{ name: string; select: boolean; change: boolean }>`
      select c.relname as name, has_table_privilege(${suite.login.name}, c.oid, 'SELECT') as select,
        has_table_privilege(${suite.login.name}, c.oid, 'INSERT, UPDATE, DELETE') as change
      from pg_class c where c.relkind = 'v' and c.relnamespace = 'public'::regnamespace`.execute(suite.tdb.handle.db);
    expect(views.map((v) => v.name)).toContain("decision_log");
    expect(views.filter((v) => v.change || !v.select)).toEqual([]);
  });
});
