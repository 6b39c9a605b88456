/**
 * The sealer computes each row's digest with its own expression (`audit_canonical_text_sql` in
 * migrations/sql/functions/audit.sql: the canonical text printed column by column, without building
 * the row's jsonb, under the function's pinned settings); the chain's definition is
 * `audit_row_digest` (docs/audit.md "Integrity: the hash chain"). Every sealed entry must carry exactly
 * the definition's digest, whatever mix of SQL NULLs, top-level JSON nulls and nested nulls a row
 * holds, in every chained table, and under session settings that would print values differently;
 * and the expression must print what `audit_canonical_row` prints for a column of any type and
 * name, including the ones no chained table has yet. On both backends.
 */
import { randomUUID } from "node:crypto";
import fc from "fast-check";
import { sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sealPending } from "../../../src/audit/sealer.js";
import type { Db } from "../../../src/database.js";
import { backends } from "../../support/backends.js";
import { decisionRow } from "../../support/decision-rows.js";

/** A jsonb value as text: SQL NULL (undefined), JSON null, or a value with nested nulls. */
const jsonValue = fc.constantFrom<string | undefined>(undefined, "null", '{"a": null, "b": [null, 1]}', '"text"', "[]", '{"n": 1.50, "t": "x\\u00e9"}');
const optionalText = fc.constantFrom<string | null>(null, "", "candidate-7");

interface Mismatch {
  source: string;
  row_key: string;
}

describe.each(backends)("sealed digests on $name", (backend) => {
  let db: Db;
  let close: () => Promise<void>;

  beforeAll(async () => {
    ({ db, close } = await backend.open());
  });
  afterAll(async () => close?.());

  async function mismatches(): Promise<Mismatch[]> {
    const { rows } = await sql<Mismatch>`
      select c.source, c.row_key from audit_chain c
      left join decisions d on c.source = 'decisions' and d.id::text = c.row_key
      left join events e on c.source = 'events' and e.id = c.row_key
      left join reviews r on c.source = 'reviews' and r.id::text = c.row_key
      left join review_actions a on c.source = 'review_actions' and a.id::text = c.row_key
      where c.row_digest is distinct from coalesce(audit_row_digest(d), audit_row_digest(e), audit_row_digest(r), audit_row_digest(a))`.execute(db);
    return rows;
  }

  it("equal audit_row_digest for decisions with any mix of SQL and JSON nulls", async () => {
    // Dated up to an hour ahead: beyond the months created ahead, a row more than a day ahead is refused (decisions_default_not_ahead).
    await fc.assert(
      fc.asyncProperty(
        fc.record({
          trace: jsonValue,
          velocityWindows: jsonValue,
          shadowRules: jsonValue,
          facts: jsonValue,
          shadowVersion: optionalText,
          decided: fc.date({ min: new Date("2019-01-01"), max: new Date(Date.now() + 3_600_000), noInvalidDate: true }),
        }),
        async (r) => {
          const row = decisionRow({
            decided_at: r.decided,
            transaction_name: `vaults/v1/transactions/${randomUUID()}`,
            facts: r.facts ?? "[]",
            trace: r.trace ?? null,
            velocity_windows: r.velocityWindows ?? null,
            shadow_matched_rules: r.shadowRules ?? null,
            shadow_policy_version: r.shadowVersion,
            duration_ms: 0.1 + Math.random(),
          });
          await db.insertInto("decisions").values(row).execute();
        },
      ),
      { numRuns: 60 },
    );
    expect(await sealPending(db)).toBe(60);
    expect(await mismatches()).toEqual([]);
  });

  it("equal audit_row_digest for events, reviews and review actions, whatever the session prints", async () => {
    const name = `vaults/v1/transactions/${randomUUID()}`;
    const decision = decisionRow({ transaction_name: name, decision: "defer", sign_transaction: null, http_status: 503 });
    await db.insertInto("decisions").values(decision).execute();
    await sql`insert into events (id, received_at, vault, type, resource, payload, body, signature, details)
      values (${randomUUID()}, now(), null, 'TRANSACTION_CREATED', ${name}, '{"id": null}', '\\x7b7d'::bytea, 'sig', 'null')`.execute(db);
    const reviewId = randomUUID();
    await sql`insert into reviews (id, transaction_name, vault, content_digest, opened_at, expires_at, opened_by, initiator, requirements, explanation)
      values (${reviewId}, ${name}, 'vaults/v1', 'x', now(), now() + interval '1 day', ${decision.id}, null, '[{"group": "g", "quorum": 2}]', '{"why": null}')`.execute(db);
    await sql`insert into review_actions (id, at, transaction_name, content_digest, identity, action, "group", comment)
      values (${randomUUID()}, now(), ${name}, 'x', 'alice@example', 'approved', 'g', null)`.execute(db);
    // Settings that change how timestamps, floats and bytea print: the sealer pins its own.
    await db.connection().execute(async (c) => {
      await sql`set timezone = 'Asia/Kathmandu'`.execute(c);
      await sql`set extra_float_digits = 0`.execute(c);
      await sql`set bytea_output = 'escape'`.execute(c);
      try {
        expect(await sealPending(c)).toBe(4);
      } finally {
        await sql`reset all`.execute(c);
      }
    });
    expect(await mismatches()).toEqual([]);
  });

  it("print what audit_canonical_row prints, for columns of any type and name", async () => {
    await sql`create domain probe_document as jsonb`.execute(db);
    await sql`create table canonical_probe (
      id int primary key, written_xid xid8 default pg_current_xact_id(), a text, "Zed" json, bb jsonb, doc probe_document,
      "we""ird key" numeric, at timestamptz, day date, span interval, raw bytea, ints int[], flag boolean, f float8, u uuid)`.execute(db);
    const text = fc.constantFrom<string | null>(null, "", 'quote " back \\ slash', "tab\t é ☃ \u0001");
    const json = fc.constantFrom<string | null>(null, "null", '{"b": 1, "a": [null, 2.50]}', '"x"', "[]", ' { "k" : null } ');
    const values = fc.record({
      a: text,
      zed: json,
      bb: json,
      doc: json,
      weird: fc.constantFrom<string | null>(null, "0", "-12.3400", "NaN", "1e-20"),
      at: fc.constantFrom<string | null>(null, "2026-11-24 12:00:00.123456+05:45", "infinity"),
      day: fc.constantFrom<string | null>(null, "2026-02-28"),
      span: fc.constantFrom<string | null>(null, "1 day 02:03:04.5", "-3 mons"),
      raw: fc.constantFrom<string | null>(null, "00ff7b", ""),
      ints: fc.constantFrom<string | null>(null, "{}", "{1,NULL,3}"),
      flag: fc.constantFrom<boolean | null>(null, true, false),
      f: fc.constantFrom<string | null>(null, "0.1", "-1e300", String(1 / 3)),
      u: fc.constantFrom<string | null>(null, "6f1c2a9e-5d1b-4c57-9f1e-2a3b4c5d6e7f"),
    });
    let id = 0;
    await fc.assert(
      fc.asyncProperty(values, async (v) => {
        await sql`insert into canonical_probe (id, a, "Zed", bb, doc, "we""ird key", at, day, span, raw, ints, flag, f, u) values
          (${++id}, ${v.a}, ${v.zed}::text::json, ${v.bb}::text::jsonb, ${v.doc}::text::jsonb, ${v.weird}::text::numeric,
           ${v.at}::text::timestamptz, ${v.day}::text::date, ${v.span}::text::interval, decode(${v.raw}::text, 'hex'),
           ${v.ints}::text::int[], ${v.flag}, ${v.f}::text::float8, ${v.u}::text::uuid)`.execute(db);
      }),
      { numRuns: 80 },
    );
    const { rows } = await sql<{ expression: string }>`select audit_canonical_text_sql('canonical_probe') as expression`.execute(db);
    const differing = await db.connection().execute(async (c) => {
      // The sealer's pinned settings; audit_canonical_row pins its own.
      await sql`set timezone = 'UTC'`.execute(c);
      await sql`set extra_float_digits = 1`.execute(c);
      await sql`set bytea_output = 'hex'`.execute(c);
      try {
        const printed = await sql<{ id: number; printed: string; canonical: string }>`
          select t.id, ${sql.raw(rows[0]!.expression)} as printed, audit_canonical_row(t)::text as canonical from canonical_probe t`.execute(c);
        expect(printed.rows).toHaveLength(id);
        return printed.rows.filter((r) => r.printed !== r.canonical);
      } finally {
        await sql`reset all`.execute(c);
      }
    });
    expect(differing).toEqual([]);
  });
});
