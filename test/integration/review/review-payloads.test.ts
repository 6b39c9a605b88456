/**
 * What a reviewer sees is what they release: a transaction that
 * carries a payload beside its transfers (here an unlimited ERC-20 allowance to 0x…dEaD beside a
 * 120.5 USDC transfer) and a rule that sends such transactions to review. The review's explanation
 * and page listed only the transfers — never the kind, the type or the payloads — so two approvers
 * saw "120.5 USDC → 0x5290…" and released an unlimited allowance they were never shown.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { example } from "../../../src/core/transaction/test-bodies.js";
import { writeBundle } from "../../support/service.js";
import { ALICE, api, approve, BOB, CAROL, reviewPath, startReviewWorld, type ReviewWorld } from "../../support/review.js";

const POLICY = `
version: "review-payloads.1"
default: deny
reviewers:
  treasury-approvers:
    - {identity: ${ALICE}, user: users/a11ce}
    - {identity: ${BOB}, user: users/2d2e40r3}
    - {identity: ${CAROL}, user: users/ca401}
rules:
  - id: more-than-transfers-review
    decision: defer
    reason: A transaction that does more than transfer waits for two treasury approvers
    review: {group: treasury-approvers, quorum: 2, expiresAfter: 24h}
    when: {"!": {"in": [{"var": "tx.kind"}, ["assetTransfer", "stellarTransaction"]]}}
  - id: reviewed
    decision: allow
    when: {"in": [{"var": "tx.kind"}, ["assetTransfer", "unknown"]]}
`;

const withAllowance = () => example("api-shape-token-transfer-with-allowance") as { name: string };

describe("a review of a transaction that carries a payload", () => {
  let w: ReviewWorld;
  let body: { name: string };

  beforeAll(async () => {
    w = await startReviewWorld(
      { COUNTERSIGN_ASSET_DECIMALS: JSON.stringify({ "assets/erc20.ethereum-mainnet.0xa0b86991c6218b36c1d19d4a2e9eb0ce3606eb48": 6 }) },
      { policiesDir: writeBundle(POLICY) },
    );
    body = { ...withAllowance(), name: `vaults/5c3f1a2b9d7e/transactions/payload${Date.now()}` };
    const first = await w.cosigner.deliver(body);
    expect(first.status, JSON.stringify(first.body)).toBe(503);
    expect(JSON.stringify(first.body), JSON.stringify(first.body)).toContain("waits for two treasury approvers");
  });
  afterAll(async () => w?.stop());

  it("shows the kind, type and payloads in the Review and on the page, before anyone approves", async () => {
    const alice = w.reviewers.tokens[ALICE]!;
    const view = await api(w.service, "GET", reviewPath(body.name), alice);
    expect(view.status).toBe(200);
    expect(view.body.explanation).toMatchObject({ kind: "unknown", type: "TRANSACTION", subType: "TOKEN_TRANSFER", payloads: ["tokenAllowances"] });

    const page = await fetch(`${w.service.url}/review/${body.name}`, { headers: { cookie: `countersign_review=${encodeURIComponent(alice)}` } });
    expect(page.status).toBe(200);
    const html = await page.text();
    expect(html).toContain("tokenAllowances");
    expect(html).toMatch(/more than its transfers/);
    // The queue names the payload before the transfers, which a batch can make a thousand lines long.
    const queue = await (await fetch(`${w.service.url}/review`, { headers: { cookie: `countersign_review=${encodeURIComponent(alice)}` } })).text();
    const row = queue.slice(queue.indexOf(body.name));
    expect(row.indexOf("+ tokenAllowances")).toBeGreaterThan(0);
    expect(row.indexOf("+ tokenAllowances")).toBeLessThan(row.indexOf("→"));

    // Released as shown: two approvals, then signed. (Every member's user is declared: the body's
    // initiator, a service account, is certainly neither approver.)
    expect((await approve(w, body.name, alice)).status).toBe(200);
    const carol = await w.issuer.idToken({ email: CAROL });
    expect((await approve(w, body.name, carol)).body.state).toBe("approved");
    expect((await w.cosigner.deliver(body)).verdict).toBe("signed");
  });

  // A bidi override reorders the text after it up to the end of its paragraph: a body key
  // "x\u202e" (a payload named by its path, sorted first) turned the rest of the red warning, and
  // the tokenAllowances in it, into mirrored text; a zero-width space in the note hid in plain sight.
  it("shows the body's bidi and zero-width characters as escapes on the page", async () => {
    const other = { ...withAllowance(), name: `vaults/5c3f1a2b9d7e/transactions/payloadbidi${Date.now()}`, note: "Pay\u200bout 42", "x\u202e": 1 };
    expect((await w.cosigner.deliver(other)).status).toBe(503);
    const page = await fetch(`${w.service.url}/review/${other.name}`, { headers: { cookie: `countersign_review=${encodeURIComponent(w.reviewers.tokens[ALICE]!)}` } });
    const html = await page.text();
    expect(html).not.toMatch(/[\u200b\u202e]/);
    expect(html).toContain("<code>[&quot;x\\u202e&quot;]</code>, <code>tokenAllowances</code>");
    expect(html).toContain("<dd>Pay\\u200bout 42</dd>");
  });

  // The page cut an ERC-20's asset id to 28 + 6 characters: 9 hex digits of the contract, which a
  // token deployed at a ground address matches, so a reviewer could not tell which token moves.
  it("shows every transfer's full asset id on the review page", async () => {
    const other = { ...withAllowance(), name: `vaults/5c3f1a2b9d7e/transactions/payloadasset${Date.now()}` };
    expect((await w.cosigner.deliver(other)).status).toBe(503);
    const page = await fetch(`${w.service.url}/review/${other.name}`, { headers: { cookie: `countersign_review=${encodeURIComponent(w.reviewers.tokens[ALICE]!)}` } });
    expect(page.status).toBe(200);
    expect(await page.text()).toContain("erc20.ethereum-mainnet.0xa0b86991c6218b36c1d19d4a2e9eb0ce3606eb48");
  });
});
