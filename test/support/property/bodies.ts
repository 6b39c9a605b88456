/**
 * Generated webhook bodies: plain transfers in every accepted shape, the same with payloads beside
 * them (every chain object of the OpenAPI `v2Transaction` schema, Stellar operations of every type,
 * EVM calldata, value and EIP-7702 authorizations), and whole bodies generated from the schema.
 */
import fc from "fast-check";
import { OpenApiArbitraries } from "./openapi.js";
import { custodyOpenApiDocument } from "../custody-openapi.js";
import * as w from "./world.js";

type Body = Record<string, unknown>;

// ---- values ----

const hex = (length: number): fc.Arbitrary<string> => fc.string({ unit: fc.constantFrom(..."0123456789abcdef"), minLength: length, maxLength: length });
const validName = fc.string({ unit: fc.constantFrom(..."abcdefghijklmnopqrstuvwxyz0123456789"), minLength: 6, maxLength: 16 }).map((id) => `${w.VAULT}/transactions/${id}`);
export const txName = fc.oneof(
  { weight: 20, arbitrary: validName },
  { weight: 1, arbitrary: fc.constantFrom(`${w.VAULT}/transactions/`, `${w.VAULT}/transactions/a/b`, "vaults//transactions/x", `${w.OTHER_VAULT}/transactions/x1`, "") },
);

/** Whole units with at most 6 decimals, at most 100: what the liveness bodies move. */
const micro = fc.integer({ min: 1, max: 100_000_000 });
/** ETH stays at most 5 in all (three legs at most), under the example policy's review threshold on the transaction's total. */
const ethMicro = (m: number): number => (m % 1_666_000) + 1;
export const microToAmount = (m: number): string => {
  const whole = Math.floor(m / 1e6);
  const frac = String(m % 1e6)
    .padStart(6, "0")
    .replace(/0+$/, "");
  return frac === "" ? `${whole}` : `${whole}.${frac}`;
};

export const amount = fc.oneof(
  { weight: 8, arbitrary: micro.map(microToAmount) },
  {
    weight: 2,
    arbitrary: fc.constantFrom("0", "100", "100.0000001", "101", "20000", "5000000", "115792089237316195423570985008687907853269984665640564039457584007913129.639935"),
  },
  { weight: 1, arbitrary: fc.constantFrom<unknown>("1e3", "-1", " 1", "0x10", "NaN", "１", "", "1.", ".5", 5, null, "1e309") },
);

const evmAddress = fc.oneof(
  fc.constantFrom(w.BOOK_EVM, w.BOOK_EVM.toLowerCase(), w.UNSIGNED_BOOK_EVM, w.OUTSIDER_EVM, w.HOT_EVM, w.COLD_EVM, w.EXTERNAL_EVM),
  hex(40).map((h) => `0x${h}`),
);
const stellarAddress = fc.constantFrom(w.HOT_STELLAR, w.SPONSOR_STELLAR, w.BOOK_STELLAR, w.OUTSIDER_STELLAR);
const walletName = fc.constantFrom(
  w.HOT,
  w.COLD,
  w.EXTERNAL_WALLET,
  w.UNKNOWN_WALLET,
  `${w.COLD}/addresses/eth0`,
  `${w.OTHER_VAULT}/wallets/w1`,
  "wallets/cold0001",
  `${w.VAULT}/wallets/`,
  `${w.VAULT}/wallets/cold0001/`,
);
export const address = fc.oneof({ weight: 4, arbitrary: evmAddress }, { weight: 1, arbitrary: stellarAddress }, { weight: 2, arbitrary: walletName });

export const asset = fc.oneof(
  { weight: 8, arbitrary: fc.constantFrom(w.USDC_ETH, w.ETH, w.OTHER_TOKEN, w.USDC_POLYGON, w.BTC, w.STELLAR_USDC_ASSET, w.STELLAR_SEP41_ASSET) },
  {
    weight: 1,
    arbitrary: fc.constantFrom<unknown>(
      w.USDC_ETH.toUpperCase().replace("ASSETS/ERC20.ETHEREUM-MAINNET", "assets/erc20.ethereum-mainnet"),
      "assets/",
      "assets/.",
      "assets/erc20..0x1",
      "",
      "ETH",
      7,
      "assets/e72ff35a5b15",
    ),
  },
);

const sourceWallet = fc.constantFrom<unknown>(w.HOT, w.HOT, w.HOT, "wallets/7a8b9c0d1e2f", w.COLD, `${w.OTHER_VAULT}/wallets/w1`, "wallets/", "");

const calldata = (selector: string, addr: string, raw: bigint): string => `0x${selector}${addr.slice(2).toLowerCase().padStart(64, "0")}${raw.toString(16).padStart(64, "0")}`;

// ---- the OpenAPI schema, with domain overrides ----

const apiTransferArb = fc.record(
  {
    sourceAddress: fc.record({ value: address, infoRef: fc.constantFrom(w.COLD, "addressBookEntries/x") }, { requiredKeys: ["value"] }),
    destinationAddress: fc.record({ value: address, infoRef: fc.constantFrom(w.COLD, "addressBookEntries/x") }, { requiredKeys: ["value"] }),
    amount,
    asset,
    rawAmount: fc.oneof(fc.bigInt({ min: 0n, max: 10n ** 30n }).map(String), fc.constant("120500000")),
    note: fc.string({ maxLength: 8 }),
  },
  { requiredKeys: ["destinationAddress", "amount", "asset"] },
);

export const api: OpenApiArbitraries = new OpenApiArbitraries(custodyOpenApiDocument(), {
  "v2Transaction.name": txName,
  "v2Transaction.network": fc.constantFrom("networks/ethereum-mainnet", "networks/stellar-mainnet", "networks/bitcoin-mainnet", "networks/polygon-mainnet"),
  "v2TransactionRequest.sourceWallet": sourceWallet,
  TransactionTransfer: apiTransferArb,
  "apiv2Address.value": address,
  "TransactionTokenAllowance.amount": amount,
  "TransactionTokenAllowance.asset": asset,
  "StellarTransactionDecodedOperationBodyPayment.amount": fc.oneof(fc.bigInt({ min: 0n, max: 10n ** 12n }).map(String), amount),
  "StellarTransactionDecodedOperationBodyPayment.asset": fc.constantFrom(w.STELLAR_USDC, "native", w.STELLAR_CONTRACT),
  "StellarTransactionDecodedOperationBodyPayment.assetRef": fc.constantFrom(w.STELLAR_USDC_ASSET, w.STELLAR_SEP41_ASSET),
  "StellarTransactionDecodedOperationBodySEP41Payment.contractAddress": fc.constant(w.STELLAR_CONTRACT),
  "StellarTransactionDecodedOperationBodySEP41Payment.rawAmount": fc.bigInt({ min: 0n, max: 10n ** 12n }).map(String),
  "StellarTransactionDecodedOperationBodySEP41TokenApproval.rawAmount": fc.bigInt({ min: 0n, max: 10n ** 30n }).map(String),
  "StellarTransactionDecodedOperationBodyCreateAccount.startingBalance": amount,
  "BTCTransactionUTXOOut.amount": amount,
  StellarTransactionDecodedOperationBody: fc.oneof(
    { weight: 4, arbitrary: fc.constant(null).chain((): fc.Arbitrary<unknown> => api.oneProperty("StellarTransactionDecodedOperationBody")) },
    { weight: 1, arbitrary: fc.constant(null).chain((): fc.Arbitrary<unknown> => api.record("StellarTransactionDecodedOperationBody")) },
  ),
});

const ref = (property: string): string => {
  const name = api.propertyRef("v2Transaction", property);
  if (name === null) throw new Error(`v2Transaction.${property} is not a schema reference`);
  return name;
};

// ---- plain transfers (the liveness set: each must be signed by the permissive policy) ----

const trustedEvm = fc.constantFrom(w.BOOK_EVM, w.BOOK_EVM.toLowerCase(), w.COLD_EVM);
const trustedDestination = fc.oneof(trustedEvm, fc.constantFrom(w.COLD, `${w.COLD}/addresses/eth0`));

/**
 * Plausible delivery metadata: state, timestamps, note, signers, request labels. (Bodies generated
 * from the schema carry arbitrary values in these fields; the plain ones must stay acceptable.)
 */
const metadata = fc.record(
  {
    state: fc.constantFrom("AWAITING_SIGNATURE", "AWAITING_POLICY_CHECK", "AWAITING_APPROVAL"),
    direction: fc.constant("OUTGOING"),
    note: fc.constantFrom("Payout batch 42", "Weekly settlement", "rebalance"),
    createTime: fc.date({ min: new Date("2026-01-01T00:00:00Z"), max: new Date("2026-12-31T00:00:00Z"), noInvalidDate: true }).map((d) => d.toISOString()),
    designatedSigners: fc.constant(["users/policy-bot@treasury.example"]),
    amlDetails: fc.constant({ screeningState: "READY", screeningPolicyResult: "ALLOW", resolved: true }),
  },
  { requiredKeys: [] },
);
const request = fc.record(
  { initiator: fc.constant("users/payout-service@treasury.example"), externalId: fc.constantFrom("payout-42", "settle-1"), origin: fc.constant("API"), publish: fc.boolean() },
  { requiredKeys: [] },
);

/** API shape, EVM: USDC or ETH to trusted destinations, with the matching `evmTransaction` when there is one transfer. */
export const plainApiEvm: fc.Arbitrary<Body> = fc
  .record({
    name: validName,
    token: fc.boolean(),
    legs: fc.array(fc.record({ m: micro, to: trustedEvm }), { minLength: 1, maxLength: 3 }),
    evm: fc.boolean(),
    meta: metadata,
    req: request,
    withSource: fc.boolean(),
  })
  .map(({ name, token, legs: given, evm, meta, req, withSource }) => {
    const legs = given.map((l) => ({ ...l, m: token ? l.m : ethMicro(l.m) }));
    const body: Body = {
      ...meta,
      name,
      type: "TRANSACTION",
      subType: legs.length > 1 ? (token ? "BATCH_TRANSFER" : "NATIVE_MULTI_TRANSFER") : token ? "TOKEN_TRANSFER" : "NATIVE_TRANSFER",
      network: "networks/ethereum-mainnet",
      request: { ...req, sourceWallet: w.HOT },
      transfers: legs.map((l) => ({
        ...(withSource ? { sourceAddress: { value: w.HOT_EVM } } : {}),
        destinationAddress: { value: l.to },
        amount: microToAmount(l.m),
        asset: token ? w.USDC_ETH : w.ETH,
      })),
    };
    const [only] = legs;
    if (evm && legs.length === 1 && only) {
      body.evmTransaction = token
        ? { fromAddress: { value: w.HOT_EVM }, toAddress: { value: w.USDC_CONTRACT }, value: "0", data: calldata("a9059cbb", only.to, BigInt(only.m)) }
        : { fromAddress: { value: w.HOT_EVM }, toAddress: { value: only.to }, value: (BigInt(only.m) * 10n ** 12n).toString(), data: "0x" };
    }
    return body;
  });

/** Shape 1: an asset transfer or a batch from the hot wallet. */
export const plainReference: fc.Arbitrary<Body> = fc
  .record({ name: validName, token: fc.boolean(), legs: fc.array(fc.record({ m: micro, to: trustedDestination }), { minLength: 1, maxLength: 3 }), batch: fc.boolean() })
  .map(({ name, token, legs: given, batch }) => {
    const legs = given.map((l) => ({ ...l, m: token ? l.m : ethMicro(l.m) }));
    const assetName = token ? w.USDC_ETH : w.ETH;
    const first = legs[0]!;
    return {
      name,
      state: "AWAITING_SIGNATURE",
      details: batch
        ? { assetBatchTransfer: { asset: assetName, source: w.HOT, destinations: legs.map((l) => ({ destination: l.to, amount: microToAmount(l.m) })) } }
        : { assetTransfer: { asset: assetName, amount: microToAmount(first.m), source: w.HOT, destination: first.to } },
    };
  });

/** Shape 1 Stellar: classic USDC payments (7 decimals) and SEP-41 payments, to the address-book anchor. */
const stellarDetails = (sep41: fc.Arbitrary<boolean>): fc.Arbitrary<Body> =>
  fc.record({ name: validName, ops: fc.array(fc.record({ raw: fc.integer({ min: 1, max: 1_000_000_000 }), sep41 }), { minLength: 1, maxLength: 3 }) }).map(({ name, ops }) => ({
    name,
    details: {
      stellarTransaction: {
        network: "networks/stellar-mainnet",
        sourceAddress: w.SPONSOR_STELLAR,
        operations: ops.map((op) => ({
          sourceAccountAddress: w.HOT_STELLAR,
          body: op.sep41
            ? { sep41Payment: { destinationAddress: w.BOOK_STELLAR, sourceAddress: w.HOT_STELLAR, contractAddress: w.STELLAR_CONTRACT, rawAmount: String(op.raw) } }
            : { payment: { destinationAddress: w.BOOK_STELLAR, asset: w.STELLAR_USDC, rawAmount: String(op.raw) } },
        })),
      },
    },
  }));

export const plainStellarDetails = stellarDetails(fc.boolean());

/** API shape Stellar: decoded payment operations and the `transfers[]` the platform lists for them. */
const stellarApi = (subTypes: readonly string[]): fc.Arbitrary<Body> =>
  fc
    .record({
      name: validName,
      ms: fc.array(micro, { minLength: 1, maxLength: 3 }),
      listed: fc.boolean(),
      subType: fc.constantFrom(...subTypes),
    })
    .map(({ name, ms, listed, subType }) => ({
      name,
      type: "TRANSACTION",
      subType,
      network: "networks/stellar-mainnet",
      request: { sourceWallet: w.HOT },
      stellarTransaction: {
        sourceAccountAddress: { value: w.SPONSOR_STELLAR },
        sequenceNumber: "123",
        fee: "100",
        operations: ms.map((m) => ({
          sourceAccountAddress: { value: w.HOT_STELLAR },
          // The decoded payment's amount is in stroops (7 decimals); transfers[] lists whole units.
          decodedBody: { payment: { destinationAddress: { value: w.BOOK_STELLAR }, asset: w.STELLAR_USDC, assetRef: w.STELLAR_USDC_ASSET, amount: String(m * 10) } },
        })),
      },
      transfers: listed
        ? ms.map((m) => ({ sourceAddress: { value: w.HOT_STELLAR }, destinationAddress: { value: w.BOOK_STELLAR }, amount: microToAmount(m), asset: w.STELLAR_USDC_ASSET }))
        : [],
    }));

/** Also under GENERIC_TRANSACTION, a subType the service may refuse to read as a payment (the oracle allows it). */
export const plainStellarApi = stellarApi(["TOKEN_TRANSFER", "NATIVE_TRANSFER", "GENERIC_TRANSACTION"]);
const stellarApiPayments = stellarApi(["TOKEN_TRANSFER", "NATIVE_TRANSFER"]);

/** Bodies a correct service signs under the permissive policy. */
export const plainBody = fc.oneof(plainApiEvm, plainReference, plainStellarDetails, stellarApiPayments);
/** Bodies a correct service signs under the example policy too (it does not list the SEP-41 token). */
export const plainForExamplePolicy = fc.oneof(plainApiEvm, plainReference, stellarDetails(fc.constant(false)), stellarApiPayments);

// ---- payloads: everything beside the transfers that can move value or grant authority ----

const evmTransactionPayload: fc.Arbitrary<Body> = fc
  .record({
    kind: fc.constantFrom("approve", "transferFrom", "otherTransfer", "randomData", "value", "authorization", "schema"),
    to: evmAddress,
    raw: fc.bigInt({ min: 0n, max: 2n ** 256n - 1n }),
    fee: api.property("v2TransactionEVMTransaction", "fee"),
    auth: fc.array(api.named("v2TransactionEVMTransactionAuthorization"), { minLength: 1, maxLength: 2 }),
    schema: api.record("v2TransactionEVMTransaction"),
  })
  .map(({ kind, to, raw, fee, auth, schema }): Body => {
    const base = { fromAddress: { value: w.HOT_EVM }, toAddress: { value: w.USDC_CONTRACT }, value: "0", fee };
    switch (kind) {
      case "approve":
        return { ...base, data: calldata("095ea7b3", to, raw) };
      case "transferFrom":
        return { ...base, data: `${calldata("23b872dd", w.HOT_EVM, 0n)}${raw.toString(16).padStart(64, "0")}`.slice(0, 202) };
      case "otherTransfer":
        return { ...base, data: calldata("a9059cbb", to, raw) };
      case "randomData":
        return { ...base, toAddress: { value: to }, data: `0x${raw.toString(16)}` };
      case "value":
        return { ...base, toAddress: { value: to }, value: (raw % 10n ** 24n).toString() };
      case "authorization":
        return { ...base, authorizationDetails: { authorizationList: auth } };
      default:
        return schema;
    }
  });

const stellarWithEveryOperation: fc.Arbitrary<Body> = fc
  .record({
    ops: fc.array(
      fc.record(
        {
          sourceAccountAddress: fc.record({ value: stellarAddress }),
          decodedBody: api.named("StellarTransactionDecodedOperationBody"),
          rawBody: api.property("StellarTransactionStellarOperation", "rawBody"),
        },
        { requiredKeys: [] },
      ),
      { minLength: 0, maxLength: 3 },
    ),
    source: stellarAddress,
  })
  .map(({ ops, source }) => ({ sourceAccountAddress: { value: source }, sequenceNumber: "1", fee: "100", operations: ops }));

const CHAIN_OBJECTS = [
  "tronTransaction",
  "aptosTransaction",
  "suiTransaction",
  "xrplTransaction",
  "substrateTransaction",
  "tonTransaction",
  "solanaTransaction",
  "thetaTransaction",
  "aleoTransaction",
];
const AUTHORITY_OBJECTS = ["evmMessage", "evmAccountDelegation", "btcPsbt", "suiSignPersonalMessage", "tonSignData", "tonProof", "solanaSignMessage"];

/** One field to set on a body: [key, value]. */
export const payload: fc.Arbitrary<[string, unknown]> = fc.oneof(
  fc.array(api.named("TransactionTokenAllowance"), { minLength: 0, maxLength: 2 }).map((v): [string, unknown] => ["tokenAllowances", v]),
  evmTransactionPayload.map((v): [string, unknown] => ["evmTransaction", v]),
  fc.constantFrom(...AUTHORITY_OBJECTS).chain((k) => api.named(ref(k)).map((v): [string, unknown] => [k, v])),
  fc.constantFrom(...CHAIN_OBJECTS).chain((k) => fc.oneof(api.oneProperty(ref(k)), api.named(ref(k))).map((v): [string, unknown] => [k, v])),
  api.named("TransactionBTCTransaction").map((v): [string, unknown] => ["btcTransaction", v]),
  stellarWithEveryOperation.map((v): [string, unknown] => ["stellarTransaction", v]),
  api.property("v2Transaction", "type").map((v): [string, unknown] => ["type", v]),
  api.property("v2Transaction", "subType").map((v): [string, unknown] => ["subType", v]),
  fc.tuple(fc.constantFrom("payload", "calls", "approvals", "extraTransfers", "authorizationList"), fc.jsonValue({ maxDepth: 2 }) as fc.Arbitrary<unknown>),
);

export function withFields(body: Body, fields: readonly [string, unknown][]): Body {
  const out: Body = { ...body };
  for (const [k, v] of fields) out[k] = v;
  return out;
}

export const plainWithPayloads = fc
  .tuple(fc.oneof(plainApiEvm, plainReference, plainStellarDetails, plainStellarApi), fc.array(payload, { minLength: 1, maxLength: 2 }))
  .map(([body, fields]) => withFields(body, fields));

/**
 * A v2Transaction from the schema: a name and up to 8 of its other fields (any of them, nested
 * objects generated from their own schemas), valid names and plausible transfers mostly.
 */
export const schemaBody: fc.Arbitrary<Body> = api.someProperties("v2Transaction", 8, ["name"]);

/** Some bodies arrive wrapped as `{"transaction": {...}}`. */
export const maybeWrapped = (arb: fc.Arbitrary<Body>): fc.Arbitrary<unknown> =>
  fc.tuple(arb, fc.nat(9)).map(([body, n]) => (n === 0 ? { transaction: body, deliveredAt: "2026-11-22T08:00:00Z" } : body));

export const generatedBody = maybeWrapped(
  fc.oneof({ weight: 3, arbitrary: plainBody }, { weight: 1, arbitrary: plainStellarApi }, { weight: 4, arbitrary: plainWithPayloads }, { weight: 2, arbitrary: schemaBody }),
);
