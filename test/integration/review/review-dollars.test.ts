/**
 * A reviewer of a transfer deferred by a dollar limit sees its dollars (docs/interface.md section
 * 10): the review API's explanation carries each transfer's `usd` and `usdPrice`, and the page
 * shows them beside the amount, with a dollar window's use in dollars.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { HOT_WALLET, USDC, transactionName } from "../../support/bodies.js";
import { writeBundle } from "../../support/service.js";
import { ALICE, api, reviewPath, startReviewWorld, type ReviewWorld } from "../../support/review.js";

const POLICY = `
version: "review-dollars.1"
default: deny
reviewers:
  treasury-approvers:
    - {identity: ${ALICE}, user: users/a11ce}
windows:
  - {name: daily_usd, duration: 24h, groupBy: [sourceWallet], measure: usd}
rules:
  - id: over-50k-waits
    decision: defer
    reason: Anything over $50,000 waits for a treasury approver
    review: {group: treasury-approvers, quorum: 1, expiresAfter: 24h}
    when: {">": [{"var": "transfer.usd"}, "50000"]}
  - id: usdc
    decision: allow
    when: {"===": [{"var": "transfer.asset"}, "${USDC}"]}
`;

describe("a review of a transfer deferred in dollars", () => {
  let w: ReviewWorld;
  beforeAll(async () => {
    w = await startReviewWorld({ COUNTERSIGN_ASSET_PRICES: JSON.stringify({ [USDC]: "0.9998" }) }, { policiesDir: writeBundle(POLICY) });
  });
  afterAll(async () => w?.stop());

  it("shows each transfer's dollars and the price, and the dollar window in dollars", async () => {
    const body = {
      name: transactionName("usd"),
      state: "AWAITING_SIGNATURE",
      details: { assetTransfer: { asset: USDC, amount: "60000", source: HOT_WALLET, destination: "0x52908400098527886E0F7030069857D2E4169EE7" } },
    };
    expect((await w.cosigner.deliver(body)).verdict).toBe("pending");
    const view = await api(w.service, "GET", reviewPath(body.name), w.reviewers.tokens[ALICE]);
    expect((view.body.explanation as { transfers: unknown[] }).transfers).toEqual([
      expect.objectContaining({ usd: "59988", usdPrice: "0.9998", velocity: { daily_usd: { usd: "0", count: 0, usdAfter: "59988", countAfter: 1 } } }),
    ]);
    const page = await fetch(`${w.service.url}/review/${body.name}`, { headers: { cookie: `countersign_review=${encodeURIComponent(w.reviewers.tokens[ALICE]!)}` } });
    const html = await page.text();
    expect(html).toContain(`<div class="muted" data-testid="usd">$59988 at $0.9998</div>`);
    expect(html).toContain("daily_usd: $0 → $59988");
  });
});
