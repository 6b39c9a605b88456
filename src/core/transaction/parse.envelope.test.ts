/**
 * The signed envelope is the truth: `rawXdrEnvelope` is decoded and must agree with the
 * decoded operations, in both shapes; every envelope here is built and signed with the network's
 * own library (test-envelopes.ts).
 */
import { Account, Asset, Memo, MuxedAccount, Operation } from "@stellar/stellar-base";
import { describe, expect, it } from "vitest";
import { contentDigest } from "./content-digest.js";
import { parseTransaction } from "./parse.js";
import { parsed, STELLAR_USDC } from "./test-bodies.js";
import {
  apiEnvelopeBody,
  DEST,
  decodedPayment,
  envelope,
  listedTransfer,
  OTHER,
  payment,
  referenceEnvelopeBody,
  referencePayment,
  SENDER,
  SPONSOR,
  TOKEN,
  tokenCall,
} from "./test-envelopes.js";

const refusal = (body: unknown) => {
  const result = parseTransaction(body);
  if (result.ok) throw new Error("expected a refusal");
  return { code: result.error.code, message: result.error.publicMessage };
};

/** What the policy sees of a parsed transaction (the snapshot aside, and the fee: an envelope states one, its absence none; checked on its own). */
const model = (body: unknown) => {
  const { snapshot: _snapshot, fee: _fee, ...rest } = parsed(body);
  return rest;
};

const withoutEnvelope = (body: Record<string, unknown>, key: "stellarTransaction" | "details") => {
  if (key === "stellarTransaction") {
    const { rawXdrEnvelope: _raw, ...st } = body.stellarTransaction as Record<string, unknown>;
    return { ...body, stellarTransaction: st };
  }
  const details = body.details as { stellarTransaction: Record<string, unknown> };
  const { rawXdrEnvelope: _raw, ...st } = details.stellarTransaction;
  return { ...body, details: { stellarTransaction: st } };
};

const usdc = new Asset("USDC", STELLAR_USDC.slice(5));
const OTHER_ISSUER_USDC = new Asset("USDC", OTHER);

describe("an envelope that agrees with the decoded operations changes nothing", () => {
  const two = envelope([payment("12345678"), payment("5000000", OTHER)]);
  it.each([
    [
      "API shape",
      apiEnvelopeBody([decodedPayment("12345678"), decodedPayment("5000000", OTHER)], two, [listedTransfer("1.2345678"), listedTransfer("0.5", OTHER)]),
      "stellarTransaction",
    ],
    ["reference shape", referenceEnvelopeBody([referencePayment("12345678"), referencePayment("5000000", OTHER)], two), "details"],
  ] as const)("%s: same transfers, kind and payloads as without it; the fee it signs is read", (_shape, body, key) => {
    const tx = model(body);
    expect(tx).toEqual(model(withoutEnvelope(body, key)));
    expect(parsed(body).fee).toEqual({ asset: "assets/native.stellar-mainnet", amount: "0.00002" }); // 100 stroops per operation
    expect(parsed(withoutEnvelope(body, key)).fee).toBeNull();
    expect(tx.kind).toBe("stellarTransaction");
    expect(tx.transfers.map((t) => [t.source.address, t.destination.address, t.amount])).toEqual([
      [SENDER, DEST, "1.2345678"],
      [SENDER, OTHER, "0.5"],
    ]);
  });

  it.each([
    ["a fee bump", { feeBump: true }],
    ["a v0 envelope", { v0: true }],
  ])("%s is read through to its transaction", (_what, options) => {
    const body = apiEnvelopeBody([decodedPayment("12345678")], envelope([payment("12345678")], options));
    expect(model(body)).toEqual(model(withoutEnvelope(body, "stellarTransaction")));
  });

  it("a fee bump's outer fee is the fee read (200 stroops a slot, two slots)", () => {
    const body = apiEnvelopeBody([decodedPayment("12345678")], envelope([payment("12345678")], { feeBump: true }));
    expect(parsed(body).fee).toEqual({ asset: "assets/native.stellar-mainnet", amount: "0.00004" });
  });

  it("a changeTrust in both is the same payload", () => {
    const body = apiEnvelopeBody(
      [decodedPayment("1"), { changeTrust: { asset: `assets/asset.stellar-mainnet.${STELLAR_USDC}` } }],
      envelope([payment("1"), Operation.changeTrust({ source: SENDER, asset: usdc })]),
    );
    expect(parsed(body)).toMatchObject({ kind: "unknown", payloads: ["stellar:changeTrust"] });
  });

  it.each([
    ["USDC named as an asset resource", `assets/asset.stellar-mainnet.${STELLAR_USDC}`, usdc],
    ["XLM as native", "native", Asset.native()],
    ["XLM as an asset resource", "assets/native.stellar-mainnet", Asset.native()],
  ])("the asset may be spelled either way: %s", (_what, decodedAsset, asset) => {
    const body = apiEnvelopeBody([decodedPayment("10000000", DEST, decodedAsset)], envelope([payment("10000000", DEST, asset)]));
    expect(model(body)).toEqual(model(withoutEnvelope(body, "stellarTransaction")));
  });

  it("a muxed destination agrees only with the same muxed address", () => {
    const muxed = new MuxedAccount(new Account(DEST, "0"), "7").accountId();
    expect(parsed(apiEnvelopeBody([decodedPayment("1", muxed)], envelope([payment("1", muxed)]))).transfers[0]!.destination.address).toBe(muxed);
    expect(refusal(apiEnvelopeBody([decodedPayment("1")], envelope([payment("1", muxed)]))).message).toMatch(/\(destination\)$/);
  });

  it("a SEP-41 transfer agrees with its decoded sep41Payment", () => {
    const decoded = { sep41Payment: { destinationAddress: { value: DEST }, sourceAddress: { value: SENDER }, contractAddress: TOKEN, rawAmount: "5000000" } };
    const tx = parsed(apiEnvelopeBody([decoded], envelope([tokenCall("transfer", DEST, "5000000")])));
    expect(tx).toMatchObject({ kind: "stellarTransaction", transfers: [{ assetStandard: "sep41", rawAmount: "5000000" }] });
  });
});

describe("an envelope that says more or other than the decoded operations is refused with 400", () => {
  const decoded = [decodedPayment("10000000")];
  it.each([
    ["a second payment", [payment("10000000"), payment("10000000", OTHER)], {}],
    ["a bigger amount", [payment("2000000000000")], {}],
    ["another destination", [payment("10000000", OTHER)], {}],
    ["another asset (same code, other issuer)", [payment("10000000", DEST, OTHER_ISSUER_USDC)], {}],
    ["XLM instead of USDC", [payment("10000000", DEST, Asset.native())], {}],
    ["another operation source", [payment("10000000", DEST, usdc, OTHER)], {}],
    ["a changeTrust beside the payment", [payment("10000000"), Operation.changeTrust({ source: SENDER, asset: usdc })], {}],
    ["a setOptions adding a signer", [payment("10000000"), Operation.setOptions({ source: SENDER, signer: { ed25519PublicKey: OTHER, weight: 255 } })], {}],
    ["an accountMerge", [payment("10000000"), Operation.accountMerge({ source: SENDER, destination: OTHER })], {}],
    ["a createAccount instead of the payment", [Operation.createAccount({ source: SENDER, destination: DEST, startingBalance: "1" })], {}],
    ["another transaction source", [payment("10000000")], { source: OTHER }],
    ["a fee bump whose inner transaction pays more", [payment("20000000")], { feeBump: true }],
  ])("%s", (_what, operations, options) => {
    expect(refusal(apiEnvelopeBody(decoded, envelope(operations, options), [listedTransfer("1")]))).toMatchObject({
      code: "INVALID_TRANSACTION",
      message: expect.stringMatching(/^stellarTransaction\.rawXdrEnvelope: /),
    });
  });

  it("names the operation and the field that disagree", () => {
    expect(refusal(apiEnvelopeBody(decoded, envelope([payment("20000000")]))).message).toBe(
      "stellarTransaction.rawXdrEnvelope: operation 0 disagrees with stellarTransaction.operations[0] (amount)",
    );
    expect(refusal(apiEnvelopeBody(decoded, envelope([payment("10000000"), payment("1")]))).message).toBe(
      "stellarTransaction.rawXdrEnvelope: holds 2 operations, stellarTransaction.operations 1",
    );
  });

  it("a SEP-41 transfer of more than decoded, or an approve for a transfer, is refused", () => {
    const sep41 = { sep41Payment: { destinationAddress: { value: DEST }, contractAddress: TOKEN, rawAmount: "5000000" } };
    expect(refusal(apiEnvelopeBody([sep41], envelope([tokenCall("transfer", DEST, "5000001")]))).message).toMatch(/\(amount\)$/);
    expect(refusal(apiEnvelopeBody([sep41], envelope([tokenCall("approve", DEST, "5000000")]))).message).toMatch(/\(type\)$/);
  });

  it.each([
    ["a second payment", [payment("10000000"), payment("10000000", OTHER)]],
    ["a bigger amount", [payment("10000001")]],
    ["a setOptions", [payment("10000000"), Operation.setOptions({ source: SENDER, masterWeight: 0 })]],
  ])("reference shape: %s", (_what, operations) => {
    expect(refusal(referenceEnvelopeBody([referencePayment("10000000")], envelope(operations)))).toMatchObject({
      code: "INVALID_TRANSACTION",
      message: expect.stringMatching(/^details\.stellarTransaction\.rawXdrEnvelope: /),
    });
  });

  it("reference shape: another transaction source", () => {
    expect(refusal(referenceEnvelopeBody([referencePayment("10000000")], envelope([payment("10000000")], { source: OTHER }))).message).toBe(
      "details.stellarTransaction.rawXdrEnvelope: its source account disagrees with the transaction's source account",
    );
  });
});

describe("the envelope must say what the body states of the transaction: fee and memo", () => {
  const decoded = [decodedPayment("10000000")];
  const stating = (raw: string, stated: Record<string, unknown>) => {
    const body = apiEnvelopeBody(decoded, raw);
    return { ...body, stellarTransaction: { ...(body.stellarTransaction as object), ...stated } };
  };
  const hash = Buffer.alloc(32, 0xab);

  it.each([
    ["the fee (100 stroops per operation)", envelope([payment("10000000")]), { fee: "100" }],
    ["a fee bump's outer fee", envelope([payment("10000000")], { feeBump: true }), { fee: "400" }],
    ["a text memo", envelope([payment("10000000")], { memo: Memo.text("invoice 7") }), { memo: { type: "TEXT", data: "invoice 7" } }],
    ["an id memo", envelope([payment("10000000")], { memo: Memo.id("12345") }), { memo: { type: "ID", data: "12345" } }],
    ["a hash memo (hex in any case)", envelope([payment("10000000")], { memo: Memo.hash(hash) }), { memo: { type: "HASH", data: `0x${hash.toString("hex").toUpperCase()}` } }],
  ])("agrees: %s", (_what, raw, stated) => {
    expect(parsed(stating(raw, stated)).kind).toBe("stellarTransaction");
  });

  it.each([
    ["a fee 10^6 times the stated one", envelope([payment("10000000")]), { fee: "0" }, /fee/],
    ["a fee bump's fee above the stated one", envelope([payment("10000000")], { feeBump: true }), { fee: "100" }, /fee/],
    ["a malformed stated fee", envelope([payment("10000000")]), { fee: "1e2" }, /fee/],
    ["another text memo", envelope([payment("10000000")], { memo: Memo.text("someone else") }), { memo: { type: "TEXT", data: "invoice 7" } }, /memo/],
    ["another memo type", envelope([payment("10000000")], { memo: Memo.id("7") }), { memo: { type: "TEXT", data: "7" } }, /memo/],
    ["no memo where the body states one", envelope([payment("10000000")]), { memo: { type: "ID", data: "7" } }, /memo/],
  ])("disagrees: %s", (_what, raw, stated, why) => {
    expect(refusal(stating(raw, stated)).message).toMatch(why);
  });
});

describe("the memo is read for the policy (tx.memo): the envelope's, else the one stated", () => {
  const decoded = [decodedPayment("10000000")];
  const hash = Buffer.alloc(32, 0xab);

  it.each([
    ["a text memo the envelope carries, the body silent", envelope([payment("10000000")], { memo: Memo.text("deposit 991") }), {}, { type: "TEXT", data: "deposit 991" }],
    ["an id memo in both", envelope([payment("10000000")], { memo: Memo.id("12345") }), { memo: { type: "id", data: "12345" } }, { type: "ID", data: "12345" }],
    ["a hash memo, as 0x and lower-case hex", envelope([payment("10000000")], { memo: Memo.hash(hash) }), {}, { type: "HASH", data: `0x${hash.toString("hex")}` }],
    ["no memo in the envelope", envelope([payment("10000000")]), {}, null],
  ])("%s", (_what, raw, stated, memo) => {
    const body = apiEnvelopeBody(decoded, raw);
    expect(parsed({ ...body, stellarTransaction: { ...(body.stellarTransaction as object), ...stated } }).memo).toEqual(memo);
  });

  it.each([
    ["a NUL (the audit row could not hold it)", Buffer.from("dep\0osit")],
    ["bytes that are not UTF-8 (read leniently, two memos would be one fact)", Buffer.from([0x31, 0x32, 0xff])],
  ])("a text memo with %s is a 400", (_what, bytes) => {
    // stellar-base types Memo.text as a string; it takes the raw bytes a memo may hold too.
    const body = apiEnvelopeBody(decoded, envelope([payment("10000000")], { memo: Memo.text(bytes as unknown as string) }));
    expect(refusal(body).message).toMatch(/^stellarTransaction\.rawXdrEnvelope: its memo is text that is not UTF-8 without NUL/);
  });

  it("without an envelope, the memo as stated; a memo that is not {type, data} of a known type is a 400", () => {
    const body = withoutEnvelope(apiEnvelopeBody(decoded, envelope([payment("10000000")])), "stellarTransaction") as Record<string, unknown>;
    const stating = (memo: unknown) => ({ ...body, stellarTransaction: { ...(body.stellarTransaction as object), memo } });
    expect(parsed(stating({ type: "HASH", data: "ABCD" })).memo).toEqual({ type: "HASH", data: "0xabcd" });
    expect(parsed(body).memo).toBeNull();
    expect(refusal(stating({ type: "NOTE", data: "x" })).message).toMatch(/^stellarTransaction\.memo: must be \{type, data\}/);
    expect(refusal(stating("deposit 991")).message).toMatch(/^stellarTransaction\.memo: must be/);
  });
});

describe("an envelope that does not decode is refused with 400", () => {
  const good = envelope([payment("10000000")]);
  it.each([
    ["not base64", "not base64!"],
    ["base64 with a stray character", `${good.slice(0, 8)}*${good.slice(8)}`],
    ["too short", "AAAA"],
    ["trailing bytes", `${good}AAAA`],
    ["cut short", good.slice(0, good.length - 8)],
    ["empty", ""],
    ["an operation, not an envelope", payment("10000000").toXDR("base64")],
  ])("%s", (_what, raw) => {
    expect(refusal(apiEnvelopeBody([decodedPayment("10000000")], raw))).toEqual({
      code: "INVALID_TRANSACTION",
      message: "stellarTransaction.rawXdrEnvelope: must be a base64 XDR Stellar transaction envelope",
    });
  });

  it("an envelope without operations", () => {
    expect(refusal(apiEnvelopeBody(null, envelope([]))).message).toBe("stellarTransaction.rawXdrEnvelope: must hold at least one operation");
  });

  it("not a string", () => {
    expect(refusal({ ...apiEnvelopeBody([decodedPayment("1")], good), stellarTransaction: { rawXdrEnvelope: 42 } }).code).toBe("INVALID_TRANSACTION");
  });
});

describe("with the envelope and no decoded operations, the envelope's operations are read", () => {
  it("its payments are the transfers, reconciled with transfers[]", () => {
    const raw = envelope([payment("12345678"), payment("5000000", OTHER)], { feeBump: true });
    const tx = parsed(apiEnvelopeBody(null, raw, [listedTransfer("1.2345678"), listedTransfer("0.5", OTHER)]));
    expect(tx.kind).toBe("stellarTransaction");
    expect(tx.transfers.map((t) => [t.asset, t.amount, t.sponsor])).toEqual([
      [STELLAR_USDC, "1.2345678", SPONSOR],
      [STELLAR_USDC, "0.5", SPONSOR],
    ]);
    expect(refusal(apiEnvelopeBody(null, raw, [listedTransfer("1.2345678")])).message).toBe("stellarTransaction.operations: move value that transfers[] does not list");
    expect(refusal(apiEnvelopeBody(null, raw, [listedTransfer("1"), listedTransfer("0.5", OTHER)])).message).toBe("stellarTransaction.operations: disagree with transfers[0]");
  });

  it.each([
    ["changeTrust", Operation.changeTrust({ source: SENDER, asset: usdc }), "stellar:changeTrust"],
    ["createAccount", Operation.createAccount({ source: SENDER, destination: OTHER, startingBalance: "1" }), "stellar:createAccount"],
    ["setOptions (not modelled)", Operation.setOptions({ source: SENDER, signer: { ed25519PublicKey: OTHER, weight: 1 } }), "stellar:unknown"],
    ["accountMerge (not modelled)", Operation.accountMerge({ source: SENDER, destination: OTHER }), "stellar:unknown"],
    ["SEP-41 approve", tokenCall("approve", OTHER, "1"), "stellar:sep41TokenApproval"],
  ])("a %s is a payload, never ignored", (_what, op, payload) => {
    expect(parsed(apiEnvelopeBody([], envelope([payment("10000000"), op])))).toMatchObject({ kind: "unknown", payloads: [payload] });
  });

  it("a createAccount's starting balance may be listed in transfers[], as with decoded operations", () => {
    const raw = envelope([Operation.createAccount({ source: SENDER, destination: OTHER, startingBalance: "2" })]);
    const listed = { sourceAddress: { value: SENDER }, destinationAddress: { value: OTHER }, amount: "2", asset: "assets/native.stellar-mainnet" };
    expect(parsed(apiEnvelopeBody(null, raw, [listed]))).toMatchObject({ kind: "unknown", payloads: ["stellar:createAccount"] });
    expect(refusal(apiEnvelopeBody(null, raw, [{ ...listed, amount: "1" }])).code).toBe("INVALID_TRANSACTION");
  });
});

describe("the content digest covers the envelope", () => {
  it("the same name and operations with another envelope is other content", () => {
    const decoded = [decodedPayment("10000000")];
    const a = parsed(apiEnvelopeBody(decoded, envelope([payment("10000000")])));
    const b = parsed(apiEnvelopeBody(decoded, envelope([payment("10000000")], { feeBump: true })));
    expect(contentDigest(a)).not.toBe(contentDigest(b));
    expect(contentDigest(a)).toBe(contentDigest(parsed(apiEnvelopeBody(decoded, envelope([payment("10000000")])))));
  });
});

describe("an operation's raw XDR (operations[].rawBody) must say what its decoded body says", () => {
  /** Shape 2 without an envelope: one decoded USDC payment of 1 from the sender, beside `rawBody`. */
  const withRawBody = (rawBody: unknown) => {
    const body = withoutEnvelope(apiEnvelopeBody([decodedPayment("10000000")], envelope([payment("10000000")]), [listedTransfer("1")]), "stellarTransaction");
    const st = (body as { stellarTransaction: { operations: Record<string, unknown>[] } }).stellarTransaction;
    return { ...body, stellarTransaction: { ...st, operations: [{ ...st.operations[0], rawBody }] } };
  };
  const plain = withoutEnvelope(apiEnvelopeBody([decodedPayment("10000000")], envelope([payment("10000000")]), [listedTransfer("1")]), "stellarTransaction");

  it("the same payment, as an Operation (with its source) or as its body alone, changes nothing", () => {
    expect(model(withRawBody(payment("10000000").toXDR("base64"))).transfers).toEqual(model(plain).transfers);
    expect(model(withRawBody(payment("10000000").body().toXDR("base64"))).payloads).toEqual([]);
    expect(model(withRawBody("")).transfers).toEqual(model(plain).transfers);
  });

  it("an account merge, a larger amount, another destination or another source behind a decoded payment is refused", () => {
    const merge = Operation.accountMerge({ destination: OTHER, source: SENDER }).toXDR("base64");
    const cases: [string, string][] = [
      [merge, "type"],
      [payment("20000000").toXDR("base64"), "amount"],
      [payment("10000000", OTHER).toXDR("base64"), "destination"],
      [payment("10000000", DEST, OTHER_ISSUER_USDC).toXDR("base64"), "asset"],
      [payment("10000000", DEST, usdc, OTHER).toXDR("base64"), "source account"],
    ];
    for (const [raw, field] of cases) {
      const { code, message } = refusal(withRawBody(raw));
      expect(code).toBe("INVALID_TRANSACTION");
      expect(message).toBe(`stellarTransaction.operations[0].rawBody: disagrees with the decoded body (${field})`);
    }
  });

  it("bytes that are no Stellar operation, or not a string, are refused", () => {
    for (const raw of ["AAAA", "not base64!", envelope([payment("10000000")])]) {
      expect(refusal(withRawBody(raw)).message).toBe("stellarTransaction.operations[0].rawBody: must be a base64 XDR Stellar operation");
    }
    expect(refusal(withRawBody(7)).message.startsWith("stellarTransaction.operations[0].rawBody: ")).toBe(true);
  });
});
