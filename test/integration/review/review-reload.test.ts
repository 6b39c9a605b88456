/**
 * A review's end is final across bundle reloads (docs/interface.md section 9: "the first of those to
 * happen is final"). Its state counts approvals under the bundle in force, so a reviewer-group
 * change can make earlier approvals count for more; a recorded rejection or expiry must still
 * stand. Two identities of one platform user approve with a third,
 * a fourth rejects, and a bundle giving one of the two an account of their own turned the rejected
 * review into an approved one, and the next delivery was signed. The other way round, a bundle
 * that counts a signed transaction's approvals for less must not let a reviewer record a rejection
 * (or the action an expiry) that stopped nothing. Real service, real Postgres.
 */
import { readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { reloadPolicies } from "../../../src/service.js";
import { assetTransfer, ETH } from "../../support/bodies.js";
import { CosignerSimulator } from "../../support/cosigner.js";
import { createTestDatabase, type TestDatabase } from "../../support/postgres.js";
import { writeReviewerTokens } from "../../support/reviewers.js";
import { EXAMPLE_POLICIES, startTestService, writeBundle } from "../../support/service.js";

const ERIN = "erin@treasury.example";
const FRANK = "frank@treasury.example";
const GINA = "gina@treasury.example";
const HENRY = "henry@treasury.example";
const IVAN = "ivan@treasury.example";

const example = readFileSync(path.join(EXAMPLE_POLICIES, "policy.yaml"), "utf8");
const withReviewers = (version: string, frank: string) =>
  example
    .replace(/^version: .*$/m, `version: "${version}"`)
    .replace(
      /reviewers:\n {2}treasury-approvers:\n( {4}- .*\n)+/,
      `reviewers:\n  treasury-approvers:\n    - {identity: ${ERIN}, user: users/ops-desk}\n    - ${frank}\n    - ${GINA}\n    - ${HENRY}\n`,
    );
/** Erin and Frank share the ops desk's platform user; then Frank gets an account of his own. */
const SHARED = (version: string) => withReviewers(version, `{identity: ${FRANK}, user: users/ops-desk}`);
const SPLIT = (version: string) => withReviewers(version, FRANK);

describe("a review closed by a rejection or an expiry, then a bundle that counts its approvals for more", () => {
  let tdb: TestDatabase;
  let service: Awaited<ReturnType<typeof startTestService>>;
  let cosigner: CosignerSimulator;
  let dir: string;
  const clock = { now: Date.parse("2026-11-22T09:00:00Z") };
  const tokens = writeReviewerTokens([ERIN, FRANK, GINA, HENRY, IVAN]);
  const act = async (verb: "approve" | "reject", name: string, who: string, comment?: string) => {
    const r = await fetch(`${service.url}/v1/${name}/review:${verb}`, {
      method: "POST",
      headers: { authorization: `Bearer ${tokens.tokens[who]}`, "content-type": "application/json" },
      body: JSON.stringify(comment ? { comment } : {}),
    });
    return { status: r.status, body: (await r.json()) as Record<string, unknown> };
  };
  const state = async (name: string) => {
    const r = await fetch(`${service.url}/v1/${name}/review`, { headers: { authorization: `Bearer ${tokens.tokens[GINA]}` } });
    return ((await r.json()) as { state: string }).state;
  };
  const load = async (text: string) => {
    writeFileSync(path.join(dir, "policy.yaml"), text);
    await reloadPolicies(service.policy, undefined);
  };
  /** 10 ETH between wallets, no initiator named: the quorum of 2 needs 3 approvals that count. */
  const deferredWithThreeApprovals = async () => {
    const body = assetTransfer({ amount: "10", asset: ETH });
    expect((await cosigner.deliver(body)).status).toBe(503);
    for (const who of [ERIN, FRANK, GINA]) expect((await act("approve", body.name, who)).status).toBe(200);
    expect(await state(body.name)).toBe("open"); // the ops desk (Erin and Frank) may have initiated it
    return body;
  };

  beforeAll(async () => {
    tdb = await createTestDatabase();
    dir = writeBundle(SHARED("reload-1"));
    service = await startTestService({ database: tdb.handle, policiesDir: dir, clock: () => new Date(clock.now), env: { COUNTERSIGN_REVIEWER_TOKENS_FILE: tokens.file } });
    cosigner = new CosignerSimulator({ webhookUrl: `${service.url}/v1/cosigner/webhook` });
  });
  afterAll(async () => {
    await service?.stop();
    await tdb?.drop();
  });

  it("stays rejected, and the next delivery is denied with the rejection", async () => {
    const body = await deferredWithThreeApprovals();
    expect((await act("reject", body.name, HENRY, "not on the payout calendar")).body).toMatchObject({ state: "rejected" });
    await load(SPLIT("reload-2"));
    expect(await state(body.name)).toBe("rejected");
    const next = await cosigner.deliver(body);
    expect(next.verdict).toBe("canceled");
    expect(next.body).toMatchObject({ reasons: [`rejected in review by ${HENRY}: not on the payout calendar`] });
  });

  it("stays expired once a delivery has recorded the expiry", async () => {
    await load(SHARED("reload-3"));
    const body = await deferredWithThreeApprovals();
    clock.now += 25 * 3600_000; // past the example's expiresAfter of 24h
    expect((await cosigner.deliver(body)).body).toMatchObject({ reasons: ["review expired"] });
    await load(SPLIT("reload-4"));
    expect(await state(body.name)).toBe("expired");
    expect((await cosigner.deliver(body)).verdict).toBe("canceled");
  });

  it("stays expired when the bundle changes after the expiry and before any delivery records it", async () => {
    await load(SHARED("reload-7"));
    const body = await deferredWithThreeApprovals();
    clock.now += 25 * 3600_000;
    await load(SPLIT("reload-8"));
    expect(await state(body.name)).toBe("expired");
    expect((await cosigner.deliver(body)).body).toMatchObject({ reasons: ["review expired"] });
  });

  it("of a transaction already signed on approval, refuses a later action that would record a rejection or expiry stopping nothing", async () => {
    await load(SHARED("reload-5"));
    const body = await deferredWithThreeApprovals();
    expect((await act("approve", body.name, HENRY)).body).toMatchObject({ state: "approved" });
    expect((await cosigner.deliver(body)).verdict).toBe("signed");
    // Henry leaves and Ivan joins: under this bundle the approvals no longer reach the quorum.
    await load(withReviewers("reload-6", `{identity: ${FRANK}, user: users/ops-desk}`).replace(`    - ${HENRY}\n`, `    - ${IVAN}\n`));
    const late = await act("reject", body.name, IVAN, "stop this payout");
    expect(late).toMatchObject({ status: 409, body: { error: { code: "REVIEW_CLOSED", message: "the transaction is already decided: allow" } } });
    clock.now += 25 * 3600_000;
    expect((await act("reject", body.name, IVAN, "stop this payout")).status).toBe(409);
    const actions = await tdb.handle.db.selectFrom("review_actions").select("action").where("transaction_name", "=", body.name).execute();
    expect(actions.map((a) => a.action).sort()).toEqual(["approved", "approved", "approved", "approved", "opened"]);
  });

  it("approved under one bundle, still deferred under the next (its rule renamed and asking more), is denied as expired once past its expiry", async () => {
    await load(SHARED("reload-9"));
    const body = await deferredWithThreeApprovals();
    expect((await act("approve", body.name, HENRY)).body).toMatchObject({ state: "approved" });
    const renamed = SHARED("reload-10").replace(
      /- id: eth-review-threshold\n(.*\n.*\n) {4}review: \{group: treasury-approvers, quorum: 2,/,
      "- id: eth-review-above-5\n$1    review: {group: treasury-approvers, quorum: 3,",
    );
    expect(renamed).toContain(
      "- id: eth-review-above-5\n    decision: defer\n    reason: ETH transfers above 5 wait for review by two treasury approvers\n    review: {group: treasury-approvers, quorum: 3,",
    );
    await load(renamed);
    const still = await cosigner.deliver(body);
    expect(still.status, JSON.stringify(still.body)).toBe(503);
    clock.now += 25 * 3600_000;
    const expired = await cosigner.deliver(body);
    expect(expired.verdict).toBe("canceled");
    expect(expired.body).toMatchObject({ reasons: ["review expired"] });
    expect(await state(body.name)).toBe("expired");
  });
});
