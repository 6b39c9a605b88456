/**
 * `audit verify` holds the chain to what `audit_seals` recorded: the latest seal's last position
 * must still be in the chain, and each seal's last position must carry the hash the seal recorded
 * (deleting the newest entries and their rows left a shorter chain that passed,
 * even against an anchor taken before them). On both backends.
 */
import { randomUUID } from "node:crypto";
import { sql } from "kysely";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { latestCheckpoint } from "../../../src/audit/checkpoint.js";
import { sealPending } from "../../../src/audit/sealer.js";
import { verifyChain } from "../../../src/audit/verify.js";
import type { Db } from "../../../src/database.js";
import { backends } from "../../support/backends.js";
import { decisionRow } from "../../support/decision-rows.js";

/** As the schema's owner with triggers off (session_replication_role = replica). */
async function asOwner(db: Db, statements: ReturnType<typeof sql>[]): Promise<void> {
  await db.transaction().execute(async (trx) => {
    await sql`set local session_replication_role = replica`.execute(trx);
    for (const s of statements) await s.execute(trx);
  });
}

const name = () => `vaults/v1/transactions/${randomUUID()}`;

describe.each(backends)("audit verify against audit_seals on $name", (backend) => {
  let db: Db;
  let close: () => Promise<void>;
  const first = decisionRow({ transaction_name: name() });
  const second = decisionRow({ transaction_name: name() });
  const third = decisionRow({ decision: "deny", sign_transaction: false, transaction_name: name() });

  beforeEach(async () => {
    ({ db, close } = await backend.open());
    await db.insertInto("decisions").values(first).execute();
    expect(await sealPending(db)).toBe(1);
    await db.insertInto("decisions").values(second).execute();
    await db.insertInto("decisions").values(third).execute();
    expect(await sealPending(db)).toBe(2);
    expect(await verifyChain(db)).toMatchObject({ ok: true, lastPosition: 3 });
  });
  afterEach(async () => close?.());

  it("reports the tail cut off the chain while the seal of it remains, with or without an anchor", async () => {
    const anchor = (await latestCheckpoint(db))!;
    const early = { position: 1, hash: (await sql<{ hash: string }>`select encode(hash, 'hex') as hash from audit_chain where position = 1`.execute(db)).rows[0]!.hash };
    await asOwner(db, [sql`delete from decisions where id in (${second.id}, ${third.id})`, sql`delete from audit_chain where position >= 2`]);
    for (const checkpoint of [undefined, early]) {
      const report = await verifyChain(db, checkpoint ? { checkpoint } : {});
      expect(report.ok).toBe(false);
      expect(report.breaks).toEqual([
        expect.objectContaining({ kind: "missing", position: 2, source: "audit_chain", detail: expect.stringContaining("audit_seals sealed up to position 3") }),
      ]);
    }
    // The anchor taken after them says so as well.
    expect((await verifyChain(db, { checkpoint: anchor })).breaks.map((b) => b.kind)).toEqual(["missing", "missing"]);
  });

  it("reports a rewritten last row whose entry was re-hashed to link, by the hash its seal recorded", async () => {
    await asOwner(db, [
      sql`update decisions set decision = 'allow', sign_transaction = true where id = ${third.id}`,
      sql`update audit_chain c set row_digest = audit_row_digest(d), hash = audit_link_hash(c.source, c.row_key, c.row_time, audit_row_digest(d), c.prev_hash)
        from decisions d where c.position = 3 and d.id::text = c.row_key`,
    ]);
    const report = await verifyChain(db);
    expect(report.ok).toBe(false);
    expect(report.breaks).toEqual([
      expect.objectContaining({ kind: "changed", position: 3, source: "audit_chain", detail: expect.stringMatching(/but seal 2 in audit_seals recorded [0-9a-f]{64}/) }),
    ]);
  });
});
