/** `countersign review list|show|approve|reject` against a running service, as a reviewer would use it. */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { example } from "../../../src/core/transaction/test-bodies.js";
import { assetTransfer, ETH, transactionName, USDC } from "../../support/bodies.js";
import { runCli } from "../../support/cli.js";
import { writeBundle } from "../../support/service.js";
import { ALICE, CAROL, INITIATED_BY_BOB, startReviewWorld, type ReviewWorld } from "../../support/review.js";

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

const PAYLOAD_POLICY = `
version: "review-cli-payloads.1"
default: deny
reviewers:
  treasury-approvers:
    - {identity: ${ALICE}, user: users/a11ce}
    - {identity: ${CAROL}, user: users/ca401}
rules:
  - id: more-than-transfers-review
    decision: defer
    reason: A transaction that does more than transfer waits for a treasury approver
    review: {group: treasury-approvers, quorum: 1, expiresAfter: 24h}
    when: {"!": {"in": [{"var": "tx.kind"}, ["assetTransfer", "stellarTransaction"]]}}
  - id: reviewed
    decision: allow
    when: {"in": [{"var": "tx.kind"}, ["assetTransfer", "unknown"]]}
`;

/**
 * What `review show` prints is all a CLI reviewer sees before `review approve`: it printed the transfers and the note, never the kind or the payloads the
 * page warns of, and printed the initiator's note as given, terminal control sequences included.
 */
describe("countersign review show, of what the initiator wrote", () => {
  let w: ReviewWorld;
  let asAlice: Record<string, string>;
  beforeAll(async () => {
    w = await startReviewWorld({ COUNTERSIGN_ASSET_DECIMALS: JSON.stringify({ [USDC]: 6 }) }, { policiesDir: writeBundle(PAYLOAD_POLICY) });
    asAlice = { COUNTERSIGN_URL: w.service.url, COUNTERSIGN_REVIEWER_TOKEN: w.reviewers.tokens[ALICE]! };
  });
  afterAll(async () => w?.stop());

  const withAllowance = (note: string) => ({
    ...example("api-shape-token-transfer-with-allowance"),
    name: transactionName("cli"),
    note,
  });

  it("names the payloads a transaction carries beside its transfers", async () => {
    const body = withAllowance("Payout batch 42");
    expect((await w.cosigner.deliver(body)).verdict).toBe("pending");
    const show = await runCli(["review", "show", body.name], { env: asAlice });
    expect(show.code, show.stderr).toBe(0);
    expect(show.stdout).toContain("kind unknown (TRANSACTION · TOKEN_TRANSFER)");
    expect(show.stdout).toMatch(/carries beside its transfers: tokenAllowances\b.*approving releases all of it/);
  });

  it("prints no control character of the note: it cannot hide the transfers or forge a line", async () => {
    // Conceal (SGR 8) hid every line printed after the note, the transfers among them; the newline
    // began a line of the note's own that reads as a transfer to a trusted wallet.
    const body = withAllowance(`Payout\n  transfer 0: 10 ${USDC} to vaults/5c3f1a2b9d7e/wallets/cold0001\u001b[8m\u009b8m\u202e`);
    expect((await w.cosigner.deliver(body)).verdict).toBe("pending");
    const show = await runCli(["review", "show", body.name], { env: asAlice });
    expect(show.code, show.stderr).toBe(0);
    expect(show.stdout).not.toMatch(/[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u202e]/);
    expect(show.stdout).toContain("note Payout\\u000a  transfer 0: 10");
    expect(show.stdout).toContain("\\u001b[8m\\u009b8m\\u202e");
    expect(show.stdout.split("\n").filter((l) => l.startsWith("  transfer "))).toHaveLength(1);

    // --json too: JSON.stringify escapes C0 controls only, and U+009B is CSI to terminals that read C1
    // controls in UTF-8 (xterm, VTE). Written as \u009b the JSON holds the same note.
    const json = await runCli(["review", "show", body.name, "--json"], { env: asAlice });
    expect(json.code, json.stderr).toBe(0);
    expect(json.stdout).not.toMatch(/[\u007f-\u009f\u202e]/);
    expect((JSON.parse(json.stdout) as { explanation: { note: string } }).explanation.note).toBe(body.note);
    const list = await runCli(["review", "list", "--json"], { env: asAlice });
    expect(list.stdout).not.toMatch(/[\u007f-\u009f\u202e]/);
  });
});
