/**
 * `final_decisions`: the first final decision of each name, so that the idempotency lookup and the
 * charges' decision check read one index instead of every month of `decisions`. What must hold: a
 * row trigger keeps the first final of every name (by seq) for every writer, it is append-only, the
 * charges' check still refuses a charge whose decision does not exist, and a name whose row went
 * with an archived month is denied, never decided again.
 */
import { sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { findFinalDecision } from "../../../src/audit/decision-rows.js";
import type { Db } from "../../../src/database.js";
import { DECIDED_THEN_ARCHIVED } from "../../../src/decision/decide.js";
import { backends } from "../../support/backends.js";
import { assetTransfer } from "../../support/bodies.js";
import { decisionRow } from "../../support/decision-rows.js";
import { serviceWithPolicy } from "../../support/service.js";

const finals = async (db: Db) =>
  (await sql<{ transaction_name: string; decision_id: string }>`select transaction_name, decision_id from final_decisions order by transaction_name`.execute(db)).rows;

const at = (iso: string) => new Date(iso);

describe.each(backends)("final_decisions on $name", (backend) => {
  let db: Db;
  let close: () => Promise<void>;
  // a's first final is its allow, not the deny after it (a second final the name's lock makes
  // impossible from the service, here by hand); b was only deferred; c's repeat and refused repeat
  // are not finals.
  const a1 = decisionRow({ transaction_name: "vaults/v1/transactions/a", decided_at: at("2026-11-20T10:00:00Z") });
  const a2 = decisionRow({ transaction_name: "vaults/v1/transactions/a", decided_at: at("2026-11-20T10:05:00Z"), decision: "deny", sign_transaction: false });
  const b = decisionRow({ transaction_name: "vaults/v1/transactions/b", decided_at: at("2026-11-20T10:00:00Z"), decision: "defer", sign_transaction: null, http_status: 503 });
  const c1 = decisionRow({ transaction_name: "vaults/v1/transactions/c", decided_at: at("2026-11-21T10:00:00Z"), decision: "deny", sign_transaction: false });

  beforeAll(async () => {
    ({ db, close } = await backend.open());
    for (const row of [a1, a2, b, c1]) await db.insertInto("decisions").values(row).execute();
    await db
      .insertInto("decisions")
      .values(decisionRow({ transaction_name: c1.transaction_name, replayed: true, replay_of: c1.id, decision: "deny", sign_transaction: false }))
      .execute();
    await db
      .insertInto("decisions")
      .values(decisionRow({ transaction_name: c1.transaction_name, replay_of: c1.id, decision: "deny", sign_transaction: false }))
      .execute();
  });
  afterAll(async () => close?.());

  it("holds the first final decision of every name, and none of a name only deferred", async () => {
    expect(await finals(db)).toEqual([
      { transaction_name: "vaults/v1/transactions/a", decision_id: a1.id },
      { transaction_name: "vaults/v1/transactions/c", decision_id: c1.id },
    ]);
  });

  it("gets each new final decision from the row trigger, and keeps the first of a name", async () => {
    const d1 = decisionRow({ transaction_name: "vaults/v1/transactions/d" });
    await db
      .insertInto("decisions")
      .values(decisionRow({ transaction_name: d1.transaction_name, decision: "defer", sign_transaction: null, http_status: 503 }))
      .execute();
    expect((await finals(db)).map((f) => f.transaction_name)).not.toContain(d1.transaction_name);
    await db.insertInto("decisions").values(d1).execute();
    await db
      .insertInto("decisions")
      .values(decisionRow({ transaction_name: d1.transaction_name, decision: "deny", sign_transaction: false }))
      .execute();
    expect((await finals(db)).find((f) => f.transaction_name === d1.transaction_name)?.decision_id).toBe(d1.id);
  });

  // findFinalDecision looked the row up by the finals row's decided_at as a
  // JavaScript Date (milliseconds), so a row stamped in microseconds (by hand, or by SQL's now())
  // was taken for archived.
  it("finds through findFinalDecision a final decision stamped in microseconds, not as archived", async () => {
    const name = "vaults/v1/transactions/microseconds";
    const row = decisionRow({ transaction_name: name, decision: "deny", sign_transaction: false });
    await db
      .insertInto("decisions")
      .values({ ...row, decided_at: sql<Date>`'2026-11-22T10:00:00.123456Z'::timestamptz` })
      .execute();
    expect(await findFinalDecision(db, name)).toMatchObject({ id: row.id, decision: "deny" });
  });

  it("refuses UPDATE, DELETE and TRUNCATE", async () => {
    await expect(sql`update final_decisions set decision_id = ${b.id}`.execute(db)).rejects.toThrow(/append-only/);
    await expect(sql`delete from final_decisions`.execute(db)).rejects.toThrow(/append-only/);
    await expect(sql`truncate final_decisions`.execute(db)).rejects.toThrow(/append-only/);
  });

  it("still refuses a charge whose decision does not exist, and takes one recorded under another name", async () => {
    const charge = (decisionId: string, name: string) => sql`
      insert into velocity_charges (decision_id, transaction_name, vault, transfer_index, group_hash, amount, charged_at)
      values (${decisionId}::uuid, ${name}, 'vaults/v1', 0, sha256('g'::bytea), 1, now())`;
    await sql`insert into velocity_groups (group_hash, group_key, first_charged_at) values (sha256('g'::bytea), 'g', now()) on conflict do nothing`.execute(db);
    await expect(charge("00000000-0000-4000-8000-00000000dead", "vaults/v1/transactions/x").execute(db)).rejects.toThrow(/refers to no decision/);
    await expect(charge(a1.id, a1.transaction_name).execute(db)).resolves.toBeDefined();
    // Not found by name (the deferral is no final): the check searches every month and finds it.
    await expect(charge(b.id, "vaults/v1/transactions/elsewhere").execute(db)).resolves.toBeDefined();
  });
});

const POLICY = `
version: "final-decisions.1"
default: deny
rules:
  - id: internal
    decision: allow
    when: {"var": "transfer.destination.internal"}
`;

describe("a delivery of a name whose decision went with an archived month", () => {
  const suite = serviceWithPolicy(POLICY);

  const tx = assetTransfer({ amount: "1" });

  it("is denied, naming the archived decision, and never signed again", async () => {
    expect((await suite.cosigner.deliver(tx)).verdict).toBe("signed");
    expect((await suite.cosigner.deliver(tx)).verdict).toBe("signed"); // a repeat: the same answer
    const first = await suite.tdb.handle.db.selectFrom("decisions").select(["id", "decided_at"]).where("transaction_name", "=", tx.name).orderBy("seq").executeTakeFirstOrThrow();
    const { rows } = await sql<{ month: string }>`select tableoid::regclass::text as month from decisions where id = ${first.id}`.execute(suite.tdb.handle.db);
    // Archiving as the README tells the owner: detach the month (then export and drop it).
    await sql`alter table decisions detach partition ${sql.table(rows[0]!.month)}`.execute(suite.tdb.handle.db);

    for (let i = 0; i < 2; i++) {
      const again = await suite.cosigner.deliver(tx);
      expect(again.verdict).toBe("canceled");
      expect(again.body).toMatchObject({ signTransaction: false, reasons: [`${DECIDED_THEN_ARCHIVED} ${first.id}`] });
    }
    const after = await suite.tdb.handle.db.selectFrom("decisions").select(["decision", "replayed", "replay_of"]).where("transaction_name", "=", tx.name).orderBy("seq").execute();
    expect(after).toEqual([
      { decision: "deny", replayed: false, replay_of: null },
      { decision: "deny", replayed: false, replay_of: null },
    ]);
  });

  // With its month detached, a new decision lands in decisions_default: the trigger, cloned to every
  // partition, still records it, so a changed redelivery is a conflict, never a fresh allow.
  it("finds a name decided in the default partition, and refuses it changed", async () => {
    const later = assetTransfer({ amount: "1" });
    expect((await suite.cosigner.deliver(later)).verdict).toBe("signed");
    const { rows } = await sql<{ month: string }>`select tableoid::regclass::text as month from decisions where transaction_name = ${later.name}`.execute(suite.tdb.handle.db);
    expect(rows).toEqual([{ month: "decisions_default" }]);
    const changed = { ...later, details: { assetTransfer: { ...later.details.assetTransfer, amount: "19" } } };
    const again = await suite.cosigner.deliver(changed);
    expect(again.verdict).toBe("canceled");
    expect(again.body).toMatchObject({ signTransaction: false, reasons: ["conflicting snapshot"] });
  });
});
