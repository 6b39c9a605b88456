/**
 * Every field a webhook body can carry, classified once (docs/interface.md section 1, "payloads, fail
 * closed"; the platform's OpenAPI schema `v2Transaction` and the reference's `details.*`). This one
 * table drives the parser (which fields are payloads), the content digest (which fields are
 * delivery metadata) and the README's list; a test fails when the OpenAPI schema has a field the
 * table does not classify.
 *
 * - `metadata`: delivery metadata — state, timestamps, fees, signatures, signer progress, hints
 *   (`infoRef`, `assetRef`). Kept in the audit snapshot; neither read nor part of the content digest.
 * - `transaction`: describes the transaction itself and is read into `tx.*` facts (name, type,
 *   subType, network, initiator, note, the delegation's own object). Cannot move value by itself.
 * - `transfer`: part of a transfer — read into `transfers`, or reconciled with them. What such a
 *   field says beyond the transfers is the payload named beside it (a calldata that is not the
 *   described token transfer is `evmCalldata`), or a contradiction refused with 400.
 * - `payload`: can move value or grant authority on its own: present, it is listed in `tx.payloads`
 *   under its name and the transaction's kind is `unknown`.
 *
 * Paths are dotted, `[]` stands for every item of an array. A class covers the field's whole
 * subtree. A field no entry covers is a payload named by its path (fail closed).
 */

export type FieldClass = "metadata" | "transaction" | "transfer" | "payload";

export interface FieldEntry {
  path: string;
  class: FieldClass;
  /** The payload name: for `payload`, always; for `transfer`, what a disagreement with the transfers lists. */
  payload?: string;
  /** Only in the reference shape (`details.*`), not in the OpenAPI `v2Transaction` schema. */
  reference?: true;
}

const m = (path: string): FieldEntry => ({ path, class: "metadata" });
const t = (path: string): FieldEntry => ({ path, class: "transaction" });
const x = (path: string, payload?: string): FieldEntry => ({ path, class: "transfer", ...(payload ? { payload } : {}) });
const p = (path: string, payload: string): FieldEntry => ({ path, class: "payload", payload });
const ref = (entry: FieldEntry): FieldEntry => ({ ...entry, reference: true });

/** The addresses the API writes as `{value, infoRef}`: the value is read, the hint never. */
const address = (path: string, read: (path: string) => FieldEntry): FieldEntry[] => [read(`${path}.value`), m(`${path}.infoRef`)];

const STELLAR_OPERATION = "stellarTransaction.operations[]";
const DECODED = `${STELLAR_OPERATION}.decodedBody`;
const REF_STELLAR = "details.stellarTransaction";
const REF_BODY = `${REF_STELLAR}.operations[].body`;

/** The decoded operations an `aleoTransaction.operations[]` item holds one of: each is a payload. */
export const ALEO_OPERATIONS = ["transferPublic", "transferPublicAsSigner", "transferPrivate", "transferPrivateToPublic", "transferPublicToPrivate", "join", "unknown"] as const;

export const FIELD_CLASSES: readonly FieldEntry[] = [
  // ---- the transaction itself ----
  t("name"),
  t("type"),
  t("subType"),
  m("state"),
  m("direction"),
  t("note"),
  t("network"),
  m("hash"),
  m("blockNumber"),
  m("signingSession"),
  ref(t("externalId")),
  ref(t("requestId")),
  t("designatedSigners"),
  m("createTime"),
  m("mineTime"),
  m("confirmTime"),
  m("expireTime"),
  m("spam"),
  m("replacementTransaction"),
  m("amlDetails"),
  m("gasStationOrder"),
  // ---- request: who asked, and from which wallet ----
  m("request.name"),
  t("request.externalId"),
  t("request.initiator"),
  x("request.sourceWallet"),
  ...["cancelTime", "signTime", "failTime", "declineTime", "publishTime", "dropTime", "expireTime", "approveTime"].map((f) => m(`request.${f}`)),
  m("request.publish"),
  m("request.signingSessions"),
  m("request.blockingTransaction"),
  m("request.walletconnectSession"),
  m("request.transactionBundle"),
  m("request.dappInfo"),
  m("request.origin"),
  // ---- transfers[] (shape 2) ----
  ...address("transfers[].sourceAddress", x),
  ...address("transfers[].destinationAddress", x),
  x("transfers[].amount"),
  // Not in the OpenAPI schema; accepted when it agrees with `amount` (a disagreement is a 400).
  ref(x("transfers[].rawAmount")),
  x("transfers[].asset"),
  m("transfers[].miningPrice"),
  t("transfers[].note"),
  // ---- what a transaction carries beside its transfers ----
  p("tokenAllowances", "tokenAllowances"),
  ...address("evmTransaction.fromAddress", x),
  ...address("evmTransaction.toAddress", (path) => x(path, "evmCalldata")),
  x("evmTransaction.value", "evmValue"),
  x("evmTransaction.data", "evmCalldata"),
  m("evmTransaction.fee"),
  p("evmTransaction.authorizationDetails.authorizationList", "evmAuthorizations"),
  m("evmTransaction.signature"),
  m("evmTransaction.providedNonce"),
  m("evmTransaction.nonce"),
  p("evmMessage", "evmMessage"),
  // The delegation is a kind of its own (`evmAccountDelegation`), which a policy allows explicitly.
  ...address("evmAccountDelegation.signerAddress", t),
  ...address("evmAccountDelegation.contractAddress", t),
  t("evmAccountDelegation.chainId"),
  t("evmAccountDelegation.nonce"),
  m("evmAccountDelegation.signature"),
  m("evmAccountDelegation.offsetNonce"),
  m("evmAccountDelegation.providedNonce"),
  ...[
    "triggerSmartContract",
    "freezeBalanceV2",
    "unfreezeBalanceV2",
    "withdrawExpireUnfreeze",
    "delegateResource",
    "undelegateResource",
    "cancelAllUnfreezeV2",
    "voteWitness",
    "withdrawBalance",
    // A plain TRX transfer; not yet reconciled with transfers[], so it fails closed.
    "transferContract",
  ].map((contract) => p(`tronTransaction.${contract}`, `tron:${contract}`)),
  m("tronTransaction.fee"),
  m("tronTransaction.signature"),
  // An input's address must be the source wallet's (the facts check it against the synced copy).
  ...address("btcTransaction.inputs[].address", (path) => x(path, "btcInputs")),
  // What an input is worth: one that states none is `btcInputs` (chain-objects.ts), so whether and
  // what it states is content (in the digest). As metadata, a redelivery of an allowed transfer
  // whose input no longer stated its amount, the same fee stated, was a repeat of the allow where
  // a first delivery is not signed.
  x("btcTransaction.inputs[].amount", "btcInputs"),
  m("btcTransaction.inputs[].signingSession"),
  m("btcTransaction.inputs[].userSelected"),
  ...address("btcTransaction.outputs[].address", (path) => x(path, "btcOutputs")),
  x("btcTransaction.outputs[].amount", "btcOutputs"),
  x("btcTransaction.outputs[].change", "btcOutputs"),
  m("btcTransaction.outputs[].changeUserSelected"),
  m("btcTransaction.fee"),
  x("btcTransaction.asset", "btcOutputs"),
  p("btcPsbt", "btcPsbt"),
  // The account the platform signs from (chain-senders.ts): the transfers' source, in the digest.
  ...address("aptosTransaction.sender", x),
  m("aptosTransaction.sequenceNumber"),
  p("aptosTransaction.payloadBytes", "aptosCall"),
  p("aptosTransaction.decodedPayload", "aptosCall"),
  m("aptosTransaction.maxGasAmount"),
  m("aptosTransaction.gasUnitPrice"),
  m("aptosTransaction.expirationTime"),
  // Which chain the signature is valid on: content (in the digest), as `network` is, and refused
  // where the network contradicts it (chain-ids.ts).
  t("aptosTransaction.chainId"),
  ...address("suiTransaction.sender", x),
  m("suiTransaction.gasBudget"),
  m("suiTransaction.gasPrice"),
  m("suiTransaction.expirationEpoch"),
  p("suiTransaction.txBcsBytes", "suiTransaction"),
  p("suiTransaction.decodedTransaction", "suiTransaction"),
  p("suiSignPersonalMessage", "suiMessage"),
  p("xrplTransaction", "xrplTransaction"),
  ...address("substrateTransaction.fromAddress", x),
  m("substrateTransaction.nonce"),
  p("substrateTransaction.encodedCall", "substrateCall"),
  p("substrateTransaction.call", "substrateCall"),
  // As aptosTransaction.chainId: in the digest, and checked against the network (chain-ids.ts).
  t("substrateTransaction.genesisHash"),
  ...address("tonTransaction.sender", x),
  m("tonTransaction.seqno"),
  p("tonTransaction.messages", "tonMessages"),
  t("tonTransaction.memo"),
  m("tonTransaction.validUntil"),
  p("tonTransaction.amount", "tonMessages"),
  p("tonSignData", "tonSignData"),
  p("tonProof", "tonProof"),
  p("solanaSignMessage", "solanaMessage"),
  m("solanaTransaction.fee"),
  // Undecoded bytes: countersign cannot show that they are only the transfers listed.
  p("solanaTransaction.rawTransaction", "solanaTransaction"),
  m("solanaTransaction.utilaSigners"),
  m("solanaTransaction.replaceBlockhash"),
  p("thetaTransaction", "thetaTransaction"),
  m("aleoTransaction.feeMicrocredits"),
  // The fee transition: its fees are read into `tx.fee` (fee.ts), so they are in the digest as read. Its
  // payer is the account whose key signs the fee: content (in the digest), so a redelivery naming
  // another payer is a conflict, never a repeat.
  m("aleoTransaction.feeOperation.amountMicrocredits"),
  m("aleoTransaction.feeOperation.priorityFeeMicrocredits"),
  ...address("aleoTransaction.feeOperation.payer", t),
  ...ALEO_OPERATIONS.map((op) => p(`aleoTransaction.operations[].${op}`, `aleo:${op}`)),
  // What names an operation; one with none of the decoded operations above is `aleo:unknown` (chain-objects.ts).
  // Which program and transition it calls is content (in the digest): another call under a decided name is a conflict.
  ...["program", "transition", "asset", "internal"].map((f) => t(`aleoTransaction.operations[].${f}`)),
  // ---- stellarTransaction (shape 2): transfers come from the decoded operations ----
  ...address("stellarTransaction.sourceAccountAddress", x),
  m("stellarTransaction.sequenceNumber"),
  m("stellarTransaction.fee"),
  t("stellarTransaction.memo"),
  m("stellarTransaction.timeBounds"),
  ...address(`${STELLAR_OPERATION}.sourceAccountAddress`, x),
  // The raw XDR of an operation: must say what the decoded body says (stellar-api.ts), in the digest.
  // Without a decoded body the operation is `stellar:unknown`.
  x(`${STELLAR_OPERATION}.rawBody`),
  ...address(`${DECODED}.payment.destinationAddress`, x),
  x(`${DECODED}.payment.asset`),
  m(`${DECODED}.payment.assetRef`),
  x(`${DECODED}.payment.amount`),
  ...["spenderAddress", "sourceAddress", "destinationAddress"].flatMap((f) => address(`${DECODED}.sep41Payment.${f}`, x)),
  x(`${DECODED}.sep41Payment.contractAddress`),
  m(`${DECODED}.sep41Payment.assetRef`),
  x(`${DECODED}.sep41Payment.rawAmount`),
  p(`${DECODED}.createAccount`, "stellar:createAccount"),
  p(`${DECODED}.changeTrust`, "stellar:changeTrust"),
  p(`${DECODED}.sep41TokenApproval`, "stellar:sep41TokenApproval"),
  // The signed envelope: decoded and reconciled with the operations (stellar-envelope.ts), in the digest.
  x("stellarTransaction.rawXdrEnvelope"),
  // ---- shape 1: `details.*` as the reference describes it ----
  ...["asset", "amount", "source", "destination", "sponsor"].map((f) => ref(x(`details.assetTransfer.${f}`))),
  ref(t("details.assetTransfer.stellarOptions.memo")),
  ...["asset", "source", "sponsor", "destinations[].destination", "destinations[].amount"].map((f) => ref(x(`details.assetBatchTransfer.${f}`))),
  ref(t("details.assetBatchTransfer.destinations[].note")),
  ref(x(`${REF_STELLAR}.network`)),
  ref(x(`${REF_STELLAR}.sourceAddress`)),
  ref(x(`${REF_STELLAR}.operations[].sourceAccountAddress`)),
  ref(x(`${REF_STELLAR}.rawXdrEnvelope`)),
  ...["destinationAddress", "asset", "rawAmount"].map((f) => ref(x(`${REF_BODY}.payment.${f}`))),
  ...["destinationAddress", "sourceAddress", "contractAddress", "rawAmount"].map((f) => ref(x(`${REF_BODY}.sep41Payment.${f}`))),
  ...["createAccount", "changeTrust", "sep41TokenApproval"].map((op) => ref(p(`${REF_BODY}.${op}`, `stellar:${op}`))),
  ref(t("details.evmAccountDelegation")),
];

const byPath: ReadonlyMap<string, FieldEntry> = new Map(FIELD_CLASSES.map((e) => [e.path, e]));

/** Paths that lead to a classified field without being one: the walk descends into these. */
const containers: ReadonlySet<string> = new Set(
  FIELD_CLASSES.flatMap((e) => {
    const parts: string[] = [];
    const segments = e.path.split(".");
    for (let i = 1; i < segments.length; i++) parts.push(segments.slice(0, i).join("."));
    // `a[]` is a container of `a[].b`, and `a` holds the items of `a[]`.
    return parts.flatMap((part) => (part.endsWith("[]") ? [part, part.slice(0, -2)] : [part]));
  }),
);

export const fieldEntry = (path: string): FieldEntry | undefined => byPath.get(path);
export const isContainer = (path: string): boolean => containers.has(path);

/** The README's list of classified fields, generated from the table. */
export function fieldClassesMarkdown(): string {
  const rows = FIELD_CLASSES.map((e) => {
    const name = e.payload === undefined ? "" : `\`${e.payload}\``;
    return `| \`${e.path}\` | ${e.class} | ${name} |`;
  });
  return ["| field | class | payload |", "|---|---|---|", ...rows].join("\n");
}
