/**
 * An approved review releases one rule, not the windows (docs/interface.md section 9: "every other rule
 * applies as usual at that delivery"): while a large
 * transfer waits for its reviewers, the same wallet spends the rest of its daily room, and the
 * approved transfer is then denied by the daily limit, read when it is released, not when it was
 * deferred.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { assetTransfer, ETH, HOT_WALLET } from "../../support/bodies.js";
import { approve, INITIATED_BY_BOB, startReviewWorld, type ReviewWorld } from "../../support/review.js";

describe("a transfer approved in review after its wallet's room was spent", () => {
  let w: ReviewWorld;
  beforeAll(async () => (w = await startReviewWorld()));
  afterAll(async () => w?.stop());

  it("is denied by the daily limit at its release, and charges nothing", async () => {
    const source = `${HOT_WALLET}room`;
    const large = { ...assetTransfer({ amount: "10", asset: ETH, source }), ...INITIATED_BY_BOB };
    expect((await w.cosigner.deliver(large)).verdict).toBe("pending");
    // Nine 5 ETH transfers (none needs review) fill 45 of the example policy's 50 ETH a day.
    for (let i = 0; i < 9; i++) expect((await w.cosigner.deliver(assetTransfer({ amount: "5", asset: ETH, source }))).verdict).toBe("signed");
    const carol = await w.issuer.idToken({ sub: "carol-1", email: "carol@treasury.example", email_verified: true });
    expect((await approve(w, large.name, w.reviewers.tokens["alice@treasury.example"]!)).status).toBe(200);
    expect((await approve(w, large.name, carol)).body).toMatchObject({ state: "approved" });
    w.clock.now += 60_000;
    const released = await w.cosigner.deliver(large);
    expect(released.body).toMatchObject({ signTransaction: false, reasons: ["At most 50 ETH may leave a wallet in 24 hours"] });
    expect(await w.tdb.handle.db.selectFrom("velocity_charges").select("id").where("transaction_name", "=", large.name).execute()).toEqual([]);
  });
});
