/**
 * A rule trusting a deposit at an exchange that uses Stellar muxed addresses (SEP-23): an `M…` is
 * the exchange's account `G…` with a sub-account id, and the exchange credits the payment to that
 * id whatever the memo. A rule cannot name an `M…` (a comparison cannot tell the rule's text from
 * the transaction's, so it matched the bare account too); it names the account and pins the
 * sub-account with `transfer.destination.muxedId`, or pins the memo with `muxedId` null.
 */
import { Account, Keypair, MuxedAccount } from "@stellar/stellar-base";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadBundleSync } from "../../../src/policy/load.js";
import { HOT_WALLET, transactionName } from "../../support/bodies.js";
import { CosignerSimulator } from "../../support/cosigner.js";
import { createTestDatabase, type TestDatabase } from "../../support/postgres.js";
import { startTestService, writeBundle } from "../../support/service.js";

const EXCHANGE = Keypair.fromRawEd25519Seed(Buffer.alloc(32, 7)).publicKey();
const subaccount = (id: string) => new MuxedAccount(new Account(EXCHANGE, "0"), id).accountId();
const XLM = "assets/native.stellar-mainnet";

const policy = (pin: string) => `
version: "muxed.1"
default: deny
rules:
  - id: only-transfers
    decision: deny
    when: {"!": {"in": [{"var": "tx.kind"}, ["assetTransfer", "stellarTransaction"]]}}
  - id: exchange-deposit
    decision: allow
    when:
      and:
        - {"===": [{"var": "transfer.asset"}, "${XLM}"]}
        - {"===": [{"var": "transfer.destination.baseAccount"}, "${EXCHANGE}"]}
        - ${pin}
        - {"<=": [{"var": "transfer.amount"}, "100000"]}
`;
/** The README's two ways: pin the sub-account, or pin the memo of a payment to the bare account. */
const BY_SUBACCOUNT = policy('{"===": [{"var": "transfer.destination.muxedId"}, "991"]}');
const BY_MEMO = policy('{"and": [{"===": [{"var": "transfer.destination.muxedId"}, null]}, {"===": [{"var": "tx.memo.data"}, "991"]}]}');

const payment = (destination: string, memo?: string) => ({
  name: transactionName("mux"),
  state: "AWAITING_SIGNATURE",
  details: {
    assetTransfer: {
      asset: XLM,
      amount: "90000",
      source: HOT_WALLET,
      destination,
      ...(memo === undefined ? {} : { stellarOptions: { memo: { type: "ID", data: memo } } }),
    },
  },
});

describe("a rule naming a muxed address", () => {
  it("is refused at load, naming the account and the muxedId to pin instead", () => {
    const named = loadBundleSync(writeBundle(policy(`{"in": [{"var": "transfer.destination.address"}, ["${subaccount("991")}"]]}`)));
    expect(named.ok).toBe(false);
    if (named.ok) return;
    expect(named.error.message).toContain(`name its account with {"===": [{"var": "transfer.destination.baseAccount"}, "${EXCHANGE}"]}`);
    expect(named.error.message).toContain('{"===": [{"var": "transfer.destination.muxedId"}, "991"]}');
    // Inside a comma-separated string too.
    expect(loadBundleSync(writeBundle(policy(`{"in": [{"var": "transfer.destination.address"}, "x,${subaccount("7")}"]}`))).ok).toBe(false);
  });

  // Equality is plain: a payment to a muxed address is not its G… account, so a deny rule naming the account against the address would let every sub-account through.
  it("naming the account against the destination's address is refused at load, naming baseAccount", () => {
    const named = loadBundleSync(writeBundle(policy(`{"in": [{"var": "transfer.destination.address"}, ["${EXCHANGE}"]]}`)));
    expect(named.ok).toBe(false);
    if (named.ok) return;
    expect(named.error.message).toMatch(
      /rule "exchange-deposit", at rules\[1\]\.when\.and\[2\]\.in\[1\]\[0\]: "in" compares transfer\.destination\.address with GDVEU3DD\S+, an account with sub-accounts .*compare transfer\.destination\.baseAccount/,
    );
  });
});

describe.each([
  [
    "the sub-account pinned by muxedId",
    BY_SUBACCOUNT,
    [[subaccount("991"), undefined]],
    [
      [EXCHANGE, "991"],
      [EXCHANGE, undefined],
      [subaccount("666"), "991"],
      [subaccount("666"), undefined],
    ],
  ],
  [
    "the memo pinned, muxedId null",
    BY_MEMO,
    [[EXCHANGE, "991"]],
    [
      [subaccount("666"), "991"],
      [subaccount("991"), "991"],
      [EXCHANGE, "666"],
      [EXCHANGE, undefined],
    ],
  ],
] as const)("an exchange deposit rule with %s", (_name, bundle, signed, cancelled) => {
  let tdb: TestDatabase;
  let service: Awaited<ReturnType<typeof startTestService>>;
  let cosigner: CosignerSimulator;
  beforeAll(async () => {
    tdb = await createTestDatabase();
    service = await startTestService({ database: tdb.handle, policiesDir: writeBundle(bundle) });
    cosigner = new CosignerSimulator({ webhookUrl: `${service.url}/v1/cosigner/webhook` });
  });
  afterAll(async () => {
    await service?.stop();
    await tdb?.drop();
  });

  it("signs the deposit it names and cancels every other sub-account, the bare account and other memos", async () => {
    for (const [destination, memo] of signed) expect((await cosigner.deliver(payment(destination, memo))).verdict, `${destination} ${memo}`).toBe("signed");
    for (const [destination, memo] of cancelled) expect((await cosigner.deliver(payment(destination, memo))).verdict, `${destination} ${memo}`).toBe("canceled");
  });
});
