/** `countersign review list|show|approve|reject` against a running service, as a reviewer would use it. */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { assetTransfer, ETH } from "../support/bodies.js";
import { runCli } from "../support/cli.js";
import { ALICE, CAROL, INITIATED_BY_BOB, startReviewWorld, type ReviewWorld } from "./support.js";

describe("countersign review", () => {
  let w: ReviewWorld;
  let asAlice: Record<string, string>;
  let asCarol: Record<string, string>;
  beforeAll(async () => {
    w = await startReviewWorld();
    asAlice = { COUNTERSIGN_URL: w.service.url, COUNTERSIGN_REVIEWER_TOKEN: w.reviewers.tokens[ALICE]! };
    asCarol = { COUNTERSIGN_URL: w.service.url, COUNTERSIGN_REVIEWER_TOKEN: await w.issuer.idToken({ email: CAROL }) };
  });
  afterAll(async () => w?.stop());

  it("lists, shows and approves until the transfer is signed", async () => {
    const body = { ...INITIATED_BY_BOB, ...assetTransfer({ amount: "10", asset: ETH }) };
    expect((await w.cosigner.deliver(body)).verdict).toBe("pending");

    const list = await runCli(["review", "list", "--state", "open"], { env: asAlice });
    expect(list.code, list.stderr).toBe(0);
    expect(list.stdout).toContain(`open     ${body.name}  0/2 treasury-approvers  expires 2026-11-23T09:00:00.000Z`);

    const show = await runCli(["review", "show", body.name], { env: asAlice });
    expect(show.code, show.stderr).toBe(0);
    expect(show.stdout).toContain(`transfer 0: 10 ${ETH} from vaults/5c3f1a2b9d7e/wallets/7a8b9c0d1e2f to vaults/5c3f1a2b9d7e/wallets/cold0001`);
    expect(show.stdout).toContain("deferred by eth-review-threshold: ETH transfers above 5 wait for review by two treasury approvers");

    const first = await runCli(["review", "approve", body.name, "--comment", "known payout"], { env: asAlice });
    expect(first.code, first.stderr).toBe(0);
    expect(first.stdout).toContain(`approved by ${ALICE} at 2026-11-22T09:00:00.000Z: known payout`);
    const second = await runCli(["review", "approve", body.name], { env: asCarol });
    expect(second.code, second.stderr).toBe(0);
    expect(second.stdout).toContain(`${body.name}: approved`);

    const json = await runCli(["review", "show", body.name, "--json"], { env: asAlice });
    expect(JSON.parse(json.stdout)).toMatchObject({ transactionName: body.name, state: "approved" });
    expect((await w.cosigner.deliver(body)).verdict).toBe("signed");
  });

  it("rejects with a comment, and says what is wrong otherwise", async () => {
    const body = { ...INITIATED_BY_BOB, ...assetTransfer({ amount: "10", asset: ETH }) };
    await w.cosigner.deliver(body);
    const noComment = await runCli(["review", "reject", body.name], { env: asAlice });
    expect(noComment.code).toBe(2);
    expect(noComment.stderr).toContain("a rejection needs --comment");
    const rejected = await runCli(["review", "reject", body.name, "--comment", "wrong desk"], { env: asAlice });
    expect(rejected.code, rejected.stderr).toBe(0);
    expect(rejected.stdout).toContain(`rejected by ${ALICE}`);
    const closed = await runCli(["review", "approve", body.name], { env: asCarol });
    expect(closed.code).toBe(1);
    expect(closed.stderr).toContain("409 REVIEW_CLOSED: the review is rejected");
    expect((await w.cosigner.deliver(body)).body).toMatchObject({ signTransaction: false, reasons: [`rejected in review by ${ALICE}: wrong desk`] });

    const badToken = await runCli(["review", "list"], { env: { ...asAlice, COUNTERSIGN_REVIEWER_TOKEN: "nope" } });
    expect(badToken.code).toBe(1);
    expect(badToken.stderr).toContain("401 UNAUTHORIZED");
    const noToken = await runCli(["review", "list"], { env: { COUNTERSIGN_URL: w.service.url } });
    expect(noToken.code).toBe(2);
    expect(noToken.stderr).toContain("COUNTERSIGN_REVIEWER_TOKEN");
    const inClear = await runCli(["review", "list"], { env: { ...asAlice, COUNTERSIGN_URL: "http://countersign.example" } });
    expect(inClear.code).toBe(2);
    expect(inClear.stderr).toContain("COUNTERSIGN_URL must be an https URL (http only on this machine");
    const badName = await runCli(["review", "show", "tx-1"], { env: asAlice });
    expect(badName.code).toBe(2);
    const missing = await runCli(["review", "show", "vaults/v1/transactions/none"], { env: asAlice });
    expect(missing.code).toBe(1);
    expect(missing.stderr).toContain("404 NOT_FOUND");
  });
});
