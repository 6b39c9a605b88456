/**
 * An initiator the body names but no member is recognised as: the
 * members are listed by email alone, the body names `users/9f3k2`, and docs/interface.md section 9 refuses
 * only an approver whose `user`, or `users/<identity>`, is the initiator. So no one was refused, and
 * alice, who may well be users/9f3k2 on the platform, released her own transfer with a quorum of 1.
 * Now any approver without a declared `user` may be the initiator: one of them is taken out, as for
 * an initiator the body does not name, and an approver whose `user` is declared counts fully.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { assetTransfer, ETH } from "../../support/bodies.js";
import { writeBundle } from "../../support/service.js";
import { ALICE, api, approve, BOB, CAROL, reviewPath, startReviewWorld, type ReviewWorld } from "../../support/review.js";

const POLICY = `
version: "unrecognised-initiator.1"
default: deny
reviewers:
  treasury-approvers:
    - ${ALICE}
    - {identity: ${BOB}, user: users/2d2e40r3}
    - ${CAROL}
rules:
  - id: eth-review
    decision: defer
    reason: ETH transfers above 5 wait for one treasury approver
    review: {group: treasury-approvers, quorum: 1, expiresAfter: 24h}
    when:
      and:
        - {"in": [{"var": "transfer.asset"}, ["${ETH}"]]}
        - {">": [{"var": "transfer.assetTotal"}, "5"]}
  - id: own-wallets
    decision: allow
    when: {"var": "transfer.destination.internal"}
`;

const UNRECOGNISED = "users/9f3k2"; // no member's user, and no member's users/<identity>
const largeTransfer = (initiator: string) => ({ ...assetTransfer({ amount: "10", asset: ETH }), request: { initiator } });

describe("a body naming an initiator no member is recognised as, over HTTP", () => {
  let w: ReviewWorld;
  let alice: string;
  let bob: string;
  let carol: string; // an OIDC ID token

  beforeAll(async () => {
    w = await startReviewWorld({}, { policiesDir: writeBundle(POLICY) });
    [alice, bob] = [w.reviewers.tokens[ALICE]!, w.reviewers.tokens[BOB]!];
    carol = await w.issuer.idToken({ email: CAROL });
  });
  afterAll(async () => w?.stop());

  const openedComment = async (name: string) =>
    (await w.tdb.handle.db.selectFrom("review_actions").select("comment").where("transaction_name", "=", name).where("action", "=", "opened").executeTakeFirstOrThrow()).comment;

  it("an approver without a user may be the initiator: with a quorum of 1, their approval alone does not release it", async () => {
    const body = largeTransfer(UNRECOGNISED);
    expect((await w.cosigner.deliver(body)).verdict).toBe("pending");
    expect(await openedComment(body.name)).toBe(
      "eth-review: 2 of treasury-approvers, or 1 if every approver has a user (the initiator users/9f3k2 is no member's user: any approver without a user could be them)",
    );

    // Not refused: alice cannot be told to be the initiator. Her approval just is not enough.
    const own = await approve(w, body.name, alice);
    expect(own.status).toBe(200);
    expect(own.body).toMatchObject({ state: "open", requirements: [{ rule: "eth-review", quorum: 2 }] });
    expect((await w.cosigner.deliver(body)).verdict).toBe("pending");
    const page = await fetch(`${w.service.url}/review/${body.name}`, { headers: { cookie: `countersign_review=${encodeURIComponent(alice)}` } });
    expect(await page.text()).toContain('treasury-approvers: 1 of 2 <span class="muted" data-testid="initiator-note">(the initiator users/9f3k2 is no member&#39;s user');

    const second = await approve(w, body.name, carol);
    expect(second.body).toMatchObject({ state: "approved", requirements: [{ quorum: 2 }] });
    const signed = await w.cosigner.deliver(body);
    expect(signed.verdict).toBe("signed");
    const facts = await w.tdb.handle.db
      .selectFrom("decisions")
      .select("facts")
      .where("id", "=", (signed.body as { decisionId: string }).decisionId)
      .executeTakeFirstOrThrow();
    // Both listed, one counted: which of them is the initiator, if either, is not known.
    expect((facts.facts as { review: unknown }[])[0]!.review).toEqual({ state: "approved", approvals: 1, approvers: [ALICE, CAROL] });
  });

  it("an approver whose user is declared is certainly not the initiator: their approval alone releases it", async () => {
    const body = largeTransfer(UNRECOGNISED);
    expect((await w.cosigner.deliver(body)).verdict).toBe("pending");
    const approved = await approve(w, body.name, bob);
    expect(approved.body).toMatchObject({ state: "approved", requirements: [{ quorum: 1 }] });
    expect((await w.cosigner.deliver(body)).verdict).toBe("signed");
  });

  it("a recognised initiator is refused, and everyone else counts fully, as before", async () => {
    const body = largeTransfer("users/2d2e40r3"); // bob's user
    expect((await w.cosigner.deliver(body)).verdict).toBe("pending");
    expect(await openedComment(body.name)).toBe("eth-review: 1 of treasury-approvers");
    expect((await approve(w, body.name, bob)).body).toMatchObject({ error: { code: "INITIATOR_CANNOT_APPROVE" } });
    expect((await approve(w, body.name, alice)).body).toMatchObject({ state: "approved", requirements: [{ quorum: 1 }] });
    expect((await w.cosigner.deliver(body)).verdict).toBe("signed");
    expect((await api(w.service, "GET", reviewPath(body.name), carol)).body.state).toBe("approved");
  });
});
