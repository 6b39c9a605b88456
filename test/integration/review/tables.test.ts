/** The review tables are append-only and refuse double approvals, on both databases. */
import { randomUUID } from "node:crypto";
import { sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Db } from "../../../src/database.js";
import { insertActions, insertReview, type ReviewAction } from "../../../src/review/store.js";
import { backends } from "../../support/backends.js";
import { decisionRow } from "../../support/decision-rows.js";

const NAME = "vaults/v1/transactions/t1";
const NOW = new Date("2026-11-22T09:00:00Z");

const action = (over: Partial<ReviewAction>): ReviewAction => ({
  id: randomUUID(),
  at: NOW,
  transactionName: NAME,
  contentDigest: "d1",
  identity: "alice@x.io",
  action: "approved",
  group: "ops",
  comment: null,
  ...over,
});

describe.each(backends)("review tables on $name", (backend) => {
  let close: () => Promise<void>;
  let db: Db;
  beforeAll(async () => {
    ({ db, close } = await backend.open());
    const decision = decisionRow({ decision: "defer", sign_transaction: null, http_status: 503, transaction_name: NAME, content_digest: "d1" });
    await db.insertInto("decisions").values(decision).execute();
    await insertReview(db, {
      id: randomUUID(),
      transactionName: NAME,
      vault: "vaults/v1",
      contentDigest: "d1",
      openedAt: NOW,
      expiresAt: new Date(NOW.getTime() + 3600_000),
      openedBy: decision.id,
      initiator: null,
      requirements: [{ rule: "r", group: "ops", quorum: 1, expiresAfter: "1h" }],
      explanation: {},
    });
    await insertActions(db, [action({ action: "opened", identity: null }), action({})]);
  });
  afterAll(async () => close?.());

  it.each(["reviews", "review_actions"])("%s refuses UPDATE, DELETE and TRUNCATE", async (table) => {
    await expect(sql`update ${sql.table(table)} set transaction_name = 'x'`.execute(db)).rejects.toThrow(/append-only/);
    await expect(sql`delete from ${sql.table(table)}`.execute(db)).rejects.toThrow(/append-only/);
    await expect(sql`truncate ${sql.table(table)} cascade`.execute(db)).rejects.toThrow(/append-only/);
  });

  it("refuses a second approval by the same identity for the same group, and a second rejection", async () => {
    await expect(insertActions(db, [action({})])).rejects.toThrow(/review_actions_one_approval/);
    await insertActions(db, [action({ action: "rejected", identity: "bob@x.io" })]);
    await expect(insertActions(db, [action({ action: "rejected", identity: "carol@x.io" })])).rejects.toThrow(/review_actions_one_close/);
  });

  it("refuses an action on a review that does not exist, and a reviewer action without identity", async () => {
    await expect(insertActions(db, [action({ contentDigest: "other" })])).rejects.toThrow(/review_actions_of_a_review/);
    await expect(insertActions(db, [action({ identity: null })])).rejects.toThrow(/review_actions_by_someone/);
  });
});
