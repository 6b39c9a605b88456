/**
 * The oracle: an independent reading of a webhook body, written from docs/interface.md sections 1, 2 and
 * 4 and the custody API's OpenAPI `v2Transaction` schema — not from src/transaction. It classifies
 * every field (delivery metadata, part of a transfer, or something that moves value or grants
 * authority on its own), reads the transfers itself, and says whether a policy may sign the body.
 * Where in doubt it says "not signable": the properties only check `signed ⇒ signable`, and a
 * separate liveness property keeps it from refusing everything.
 */
import Big from "big.js";
import type { AddressBookView } from "../../../src/core/addressbook/types.js";
import { KNOWN_DECIMALS } from "./world.js";

/** Exact decimals with a private configuration. */
const Dec = Big();

export interface OracleTransfer {
  /** Canonical asset identity: one identity whatever the shape spells. */
  asset: string;
  network: string | null;
  /** Whole units, or null when only a raw amount is known (SEP-41). */
  amount: Big | null;
  raw: Big | null;
  /** Canonical source identity (a wallet name, else the normalised address). */
  source: string;
  /** As written. */
  destination: string;
}

export type Reading = { signable: true; transfers: OracleTransfer[]; vault: string } | { signable: false; why: string };

const no = (why: string): Reading => ({ signable: false, why });

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);
const present = (v: unknown): boolean => v !== undefined && v !== null;
/** Holds something: not absent, null, an empty list or an empty object (those say nothing). */
const carries = (v: unknown): boolean => present(v) && !(Array.isArray(v) && v.length === 0) && !(isRecord(v) && Object.keys(v).length === 0);
const presentKeys = (r: Record<string, unknown>): string[] => Object.keys(r).filter((k) => present(r[k]));
const nonEmptyString = (v: unknown): v is string => typeof v === "string" && v.length > 0;

const DECIMAL = /^[0-9]+(\.[0-9]+)?$/;
const INTEGER = /^[0-9]+$/;
const decimal = (v: unknown): Big | null => (typeof v === "string" && v.length <= 160 && DECIMAL.test(v) ? new Dec(v) : null);
const integer = (v: unknown): Big | null => (typeof v === "string" && v.length <= 160 && INTEGER.test(v) ? new Dec(v) : null);

const TX_NAME = /^vaults\/([A-Za-z0-9_-]+)\/transactions\/([A-Za-z0-9_-]+)$/;
const WALLET = /^(vaults\/[A-Za-z0-9_-]+\/wallets\/[A-Za-z0-9_-]+)(\/addresses\/[A-Za-z0-9_-]+)?$/;
const SHORT_WALLET = /^wallets\/([A-Za-z0-9_-]+)$/;
const EVM_ADDRESS = /^0x[0-9a-fA-F]{40}$/;
const ASSET_NAME = /^assets\/[A-Za-z0-9_:-]+(\.[A-Za-z0-9_:-]+)*$/;
const STELLAR_CLASSIC = /^[A-Za-z0-9]{1,12}-G[A-Z2-7]{55}$/;

// ---- the classification of v2Transaction's top-level fields (and the reference shape's) ----

/** Delivery metadata and labels: cannot move value or grant authority. */
const METADATA = new Set([
  "name",
  "state",
  "direction",
  "note",
  "hash",
  "blockNumber",
  "signingSession",
  "amlDetails",
  "gasStationOrder",
  "designatedSigners",
  "createTime",
  "mineTime",
  "confirmTime",
  "expireTime",
  "spam",
  "replacementTransaction",
  "externalId",
  "requestId",
  "network",
  "request",
]);
/** Objects that, holding anything at all, are a message, a delegation or a PSBT to sign: never a plain transfer. */
const AUTHORITY_OBJECTS = new Set(["evmMessage", "evmAccountDelegation", "btcPsbt", "suiSignPersonalMessage", "tonSignData", "tonProof", "solanaSignMessage"]);
/** Chain objects: the listed keys are fees, nonces and signatures; any other present key is a call or a payload. */
const CHAIN_OBJECT_METADATA: Record<string, ReadonlySet<string>> = {
  tronTransaction: new Set(["fee", "signature"]),
  aptosTransaction: new Set(["sender", "sequenceNumber", "maxGasAmount", "gasUnitPrice", "expirationTime", "chainId"]),
  suiTransaction: new Set(["sender", "gasBudget", "gasPrice", "expirationEpoch"]),
  xrplTransaction: new Set(),
  substrateTransaction: new Set(["fromAddress", "nonce", "genesisHash"]),
  tonTransaction: new Set(["sender", "seqno", "memo", "validUntil"]),
  solanaTransaction: new Set(["fee", "utilaSigners", "replaceBlockhash"]),
  thetaTransaction: new Set(),
  aleoTransaction: new Set(["feeMicrocredits", "feeOperation"]),
};
/** Read by the oracle below and signable only when they say no more than the transfers. */
const MATCHED = new Set(["type", "subType", "transfers", "details", "tokenAllowances", "evmTransaction", "btcTransaction", "stellarTransaction"]);

export const TRANSFER_SUBTYPES: ReadonlySet<string> = new Set(["NATIVE_TRANSFER", "TOKEN_TRANSFER", "NATIVE_MULTI_TRANSFER", "BATCH_TRANSFER", "BTC_TRANSFER"]);

/** Every top-level field the oracle has a class for; anything else is unclassified, hence a payload. */
export const CLASSIFIED_FIELDS: ReadonlySet<string> = new Set([...METADATA, ...AUTHORITY_OBJECTS, ...Object.keys(CHAIN_OBJECT_METADATA), ...MATCHED]);

interface Context {
  vault: string;
  network: string | null;
  /** `request.sourceWallet`, qualified. */
  sourceWallet: string | null;
  view: AddressBookView;
}

/** Reads a body as the oracle understands it: the transfers to judge, or why it must not be signed. */
export function read(body: unknown, view: AddressBookView): Reading {
  const tx = unwrap(body);
  if (tx === null) return no("not a transaction object");
  const name = typeof tx.name === "string" ? TX_NAME.exec(tx.name) : null;
  if (!name) return no("no valid transaction name");
  const vault = `vaults/${name[1]}`;
  for (const key of Object.keys(tx)) {
    if (!CLASSIFIED_FIELDS.has(key) && carries(tx[key])) return no(`unclassified field ${key}`);
  }
  for (const key of AUTHORITY_OBJECTS) if (carries(tx[key])) return no(`${key} present`);
  for (const [key, metadata] of Object.entries(CHAIN_OBJECT_METADATA)) {
    const why = chainObject(key, tx[key], metadata);
    if (why) return no(why);
  }
  if (carries(tx.tokenAllowances)) return no("tokenAllowances");
  if (present(tx.type) && tx.type !== "TRANSACTION") return no(`type ${String(tx.type)}`);
  const sourceWallet = requestSourceWallet(tx, vault);
  if (sourceWallet === undefined) return no("request.sourceWallet is not a wallet of this vault");
  const network = typeof tx.network === "string" ? tx.network.replace(/^networks\//, "") : null;
  const ctx: Context = { vault, network, sourceWallet, view };
  const transfers = present(tx.details) ? referenceShape(tx, ctx) : apiShape(tx, ctx);
  if (!Array.isArray(transfers)) return transfers;
  const evm = evmTransaction(tx.evmTransaction, transfers);
  if (evm) return no(evm);
  const btc = btcTransaction(tx.btcTransaction, transfers);
  if (btc) return no(btc);
  return { signable: true, transfers, vault };
}

function unwrap(body: unknown): Record<string, unknown> | null {
  if (!isRecord(body)) return null;
  if (Object.hasOwn(body, "name")) return present(body.transaction) ? null : body;
  return isRecord(body.transaction) ? body.transaction : null;
}

function chainObject(key: string, value: unknown, metadata: ReadonlySet<string>): string | null {
  if (!carries(value)) return null;
  if (!isRecord(value)) return `${key} is not an object`;
  const call = Object.keys(value).find((k) => !metadata.has(k) && carries(value[k]));
  return call === undefined ? null : `${key}.${call}`;
}

/** undefined: present but not a wallet of this vault. */
function requestSourceWallet(tx: Record<string, unknown>, vault: string): string | null | undefined {
  const given = isRecord(tx.request) ? tx.request.sourceWallet : undefined;
  if (!present(given)) return null;
  if (typeof given !== "string") return undefined;
  const wallet = walletOf(given, vault);
  return wallet !== null && wallet.startsWith(`${vault}/`) ? wallet : undefined;
}

/** The wallet a resource name denotes (`wallets/w` qualified with the vault), or null for a raw address. */
export function walletOf(value: string, vault: string): string | null {
  const full = WALLET.exec(value);
  if (full) return full[1]!;
  const short = SHORT_WALLET.exec(value);
  return short ? `${vault}/wallets/${short[1]}` : null;
}

export const normaliseAddress = (address: string): string => (EVM_ADDRESS.test(address) ? address.toLowerCase() : address);

/** One identity per asset, whatever the shape: Stellar `CODE-ISSUER` and `assets/asset.stellar-*.CODE-ISSUER` agree. */
export function assetIdentity(asset: string): string {
  const stellar = /^assets\/asset\.stellar-[a-z]+\.(.+)$/.exec(asset);
  if (stellar) return `stellar:${stellar[1]}`;
  if (STELLAR_CLASSIC.test(asset) || /^C[A-Z2-7]{55}$/.test(asset) || asset === "native") return `stellar:${asset}`;
  return asset.startsWith("assets/erc20.") ? asset.toLowerCase() : asset;
}

const validAssetName = (asset: unknown): asset is string => typeof asset === "string" && asset.length <= 512 && ASSET_NAME.test(asset);

function networkOf(asset: string, fallback: string | null): string | null {
  const m = /^assets\/[^.]+\.([A-Za-z0-9_-]+)/.exec(asset);
  return m ? m[1]! : fallback;
}

/**
 * Whose funds move: a wallet named in the source must be `request.sourceWallet` when both are given
 * (null: a contradiction). A raw address the synced copy knows is that wallet's, whatever the
 * request claims (the body cannot see the copy, the facts can); an unknown one stands for itself,
 * or for the request's wallet.
 */
function sourceIdentity(written: string | null, ctx: Context, network: string | null): string | null {
  if (written === null) return ctx.sourceWallet;
  const named = walletOf(written, ctx.vault);
  if (named !== null) return ctx.sourceWallet !== null && named !== ctx.sourceWallet ? null : named;
  return ownWalletOf(ctx.view, written, network) ?? ctx.sourceWallet ?? normaliseAddress(written);
}

export function ownWalletOf(view: AddressBookView, address: string, network: string | null): string | null {
  const a = normaliseAddress(address);
  return view.ownAddresses.find((o) => normaliseAddress(o.address) === a && o.network === network)?.wallet ?? null;
}

// ---- shape 1: details.* ----

function referenceShape(tx: Record<string, unknown>, ctx: Context): OracleTransfer[] | Reading {
  if (!isRecord(tx.details)) return no("details is not an object");
  if (present(tx.transfers) && !(Array.isArray(tx.transfers) && tx.transfers.length === 0)) return no("details beside transfers[]");
  if (present(tx.stellarTransaction)) return no("details beside an API stellarTransaction");
  if (present(tx.subType) && !TRANSFER_SUBTYPES.has(tx.subType as string)) return no(`details beside subType ${String(tx.subType)}`);
  const keys = presentKeys(tx.details);
  if (keys.length !== 1) return no("details must hold exactly one kind");
  const value = tx.details[keys[0]!];
  switch (keys[0]) {
    case "assetTransfer":
      return assetTransfers(value, ctx, false);
    case "assetBatchTransfer":
      return assetTransfers(value, ctx, true);
    case "stellarTransaction":
      return stellarDetails(value, ctx);
    default:
      return no(`details.${keys[0]}`);
  }
}

/** A key beside the allowed ones that holds something: an unclassified field. */
const only = (r: Record<string, unknown>, allowed: readonly string[]): string | undefined => Object.keys(r).find((k) => !allowed.includes(k) && carries(r[k]));

function assetTransfers(value: unknown, ctx: Context, batch: boolean): OracleTransfer[] | Reading {
  if (!isRecord(value)) return no("the transfer is not an object");
  const extra = only(value, batch ? ["asset", "source", "sponsor", "destinations", "note"] : ["asset", "amount", "source", "destination", "sponsor", "note"]);
  if (extra) return no(`unclassified transfer field ${extra}`);
  if (!validAssetName(value.asset) || !nonEmptyString(value.source)) return no("asset or source malformed");
  const network = networkOf(value.asset, ctx.network);
  const source = sourceIdentity(value.source, ctx, network);
  if (source === null) return no("source contradicts request.sourceWallet");
  const legs = batch ? value.destinations : [{ destination: value.destination, amount: value.amount }];
  if (!Array.isArray(legs) || legs.length === 0) return no("no destinations");
  const transfers: OracleTransfer[] = [];
  for (const leg of legs) {
    if (!isRecord(leg) || only(leg, ["destination", "amount", "note"])) return no("a destination is malformed");
    const amount = decimal(leg.amount);
    if (amount === null || !nonEmptyString(leg.destination)) return no("amount or destination malformed");
    transfers.push({ asset: assetIdentity(value.asset), network, amount, raw: null, source, destination: leg.destination });
  }
  return transfers;
}

function stellarDetails(value: unknown, ctx: Context): OracleTransfer[] | Reading {
  if (!isRecord(value) || only(value, ["network", "sourceAddress", "operations", "memo"])) return no("details.stellarTransaction malformed");
  if (!nonEmptyString(value.network) || !nonEmptyString(value.sourceAddress)) return no("stellar network or source missing");
  const network = value.network.replace(/^networks\//, "");
  if (!Array.isArray(value.operations) || value.operations.length === 0) return no("no operations");
  const transfers: OracleTransfer[] = [];
  for (const op of value.operations) {
    if (!isRecord(op) || only(op, ["sourceAccountAddress", "body"]) || !nonEmptyString(op.sourceAccountAddress) || !isRecord(op.body)) {
      return no("operation malformed");
    }
    const keys = presentKeys(op.body);
    if (keys.length !== 1) return no("operation body must hold one operation");
    const source = sourceIdentity(op.sourceAccountAddress, { ...ctx, network }, network);
    if (source === null) return no("operation source contradicts request.sourceWallet");
    const body = op.body[keys[0]!];
    if (!isRecord(body)) return no("operation body malformed");
    if (keys[0] === "payment") {
      if (only(body, ["destinationAddress", "asset", "rawAmount"])) return no("payment has unclassified fields");
      const raw = integer(body.rawAmount);
      const asset = body.asset;
      if (raw === null || !nonEmptyString(body.destinationAddress) || typeof asset !== "string" || !(STELLAR_CLASSIC.test(asset) || asset === "native")) {
        return no("payment malformed");
      }
      transfers.push({ asset: assetIdentity(asset), network, amount: raw.div(10_000_000), raw, source, destination: body.destinationAddress });
    } else if (keys[0] === "sep41Payment") {
      if (only(body, ["destinationAddress", "sourceAddress", "contractAddress", "rawAmount"])) return no("sep41Payment has unclassified fields");
      const raw = integer(body.rawAmount);
      if (raw === null || !nonEmptyString(body.destinationAddress) || !nonEmptyString(body.contractAddress)) return no("sep41Payment malformed");
      if (present(body.sourceAddress) && body.sourceAddress !== op.sourceAccountAddress) return no("sep41Payment source contradicts the operation's");
      transfers.push({ asset: assetIdentity(body.contractAddress), network, amount: null, raw, source, destination: body.destinationAddress });
    } else {
      return no(`stellar operation ${keys[0]}`);
    }
  }
  return transfers;
}

// ---- shape 2: the API's GetTransaction object ----

function apiShape(tx: Record<string, unknown>, ctx: Context): OracleTransfer[] | Reading {
  if (tx.subType === "EVM_ACCOUNT_DELEGATION") return no("delegation subType");
  const listed = apiTransfers(tx.transfers, ctx);
  if (!Array.isArray(listed)) return listed;
  if (present(tx.stellarTransaction)) {
    if (present(tx.subType) && !TRANSFER_SUBTYPES.has(tx.subType as string) && tx.subType !== "GENERIC_TRANSACTION") {
      return no(`a Stellar transaction under subType ${String(tx.subType)}`);
    }
    return stellarApi(tx.stellarTransaction, listed, ctx);
  }
  // A missing `type` is not a second kind: the transfer subType says what the body is.
  if (!TRANSFER_SUBTYPES.has(tx.subType as string)) return no("not a transfer by subType");
  if (listed.length === 0) return no("no transfers");
  return listed;
}

function apiTransfers(value: unknown, ctx: Context): OracleTransfer[] | Reading {
  if (!present(value)) return [];
  if (!Array.isArray(value)) return no("transfers is not a list");
  const transfers: OracleTransfer[] = [];
  for (const t of value) {
    if (!isRecord(t)) return no("a transfer is not an object");
    const extra = only(t, ["sourceAddress", "destinationAddress", "amount", "asset", "miningPrice", "note", "rawAmount"]);
    if (extra) return no(`unclassified transfer field ${extra}`);
    if (!validAssetName(t.asset)) return no("asset malformed");
    const network = networkOf(t.asset, ctx.network);
    const destination = isRecord(t.destinationAddress) ? t.destinationAddress.value : undefined;
    if (!nonEmptyString(destination)) return no("destination malformed");
    const written = isRecord(t.sourceAddress) && present(t.sourceAddress.value) ? t.sourceAddress.value : null;
    if (written !== null && !nonEmptyString(written)) return no("source malformed");
    const source = sourceIdentity(written, ctx, network);
    if (source === null) return no("no source, or one that contradicts request.sourceWallet");
    const amount = decimal(t.amount);
    if (amount === null) return no("amount malformed or missing");
    const raw = present(t.rawAmount) ? integer(t.rawAmount) : null;
    if (present(t.rawAmount) && (raw === null || !rawAgrees(t.asset, amount, raw))) return no("rawAmount disagrees with amount");
    transfers.push({ asset: assetIdentity(t.asset), network, amount, raw, source, destination });
  }
  return transfers;
}

/** Tokens in practice have at most 18 decimals (ERC-20 convention); more is a disagreement. */
const MAX_TOKEN_DECIMALS = 18;

/**
 * raw = amount × 10^decimals, with the asset's decimals when the body's asset id says them (a native
 * coin), else for some number of them: a token's decimals are not in the body.
 */
function rawAgrees(asset: string, amount: Big, raw: Big): boolean {
  const known = KNOWN_DECIMALS[asset];
  const candidates = known === undefined ? [...Array(MAX_TOKEN_DECIMALS + 1).keys()] : [known];
  return candidates.some((d) => amount.times(new Dec(10).pow(d)).eq(raw));
}

function stellarApi(value: unknown, listed: OracleTransfer[], ctx: Context): OracleTransfer[] | Reading {
  if (!isRecord(value)) return no("stellarTransaction is not an object");
  const extra = only(value, ["sourceAccountAddress", "sequenceNumber", "fee", "memo", "timeBounds", "operations", "rawXdrEnvelope"]);
  if (extra) return no(`stellarTransaction.${extra}`);
  // The envelope is what gets signed; the oracle does not decode XDR, so it vouches for none.
  if (present(value.rawXdrEnvelope)) return no("a raw Stellar envelope the oracle cannot read");
  const network = ctx.network ?? "stellar-mainnet";
  const txSource = isRecord(value.sourceAccountAddress) ? value.sourceAccountAddress.value : undefined;
  if (!Array.isArray(value.operations) || value.operations.length === 0) return no("a Stellar transaction without decoded operations");
  const fromOps: OracleTransfer[] = [];
  for (const op of value.operations) {
    const t = stellarApiOperation(op, txSource, ctx, network);
    if (!("asset" in t)) return t;
    fromOps.push(t);
  }
  // transfers[] must not say anything the operations contradict: each entry is one of them.
  const unmatched = [...fromOps];
  for (const t of listed) {
    const i = unmatched.findIndex((o) => o.destination === t.destination && o.asset === t.asset && (o.amount === null || (t.amount !== null && o.amount.eq(t.amount))));
    if (i < 0) return no("a transfers[] entry the operations do not show");
    unmatched.splice(i, 1);
  }
  return fromOps;
}

function stellarApiOperation(op: unknown, txSource: unknown, ctx: Context, network: string): OracleTransfer | Reading {
  if (!isRecord(op) || only(op, ["sourceAccountAddress", "rawBody", "decodedBody"])) return no("stellar operation malformed");
  if (!isRecord(op.decodedBody)) return no("a stellar operation that is not decoded");
  const keys = presentKeys(op.decodedBody);
  if (keys.length !== 1) return no("a decoded operation must hold one operation");
  if (keys[0] !== "payment" && keys[0] !== "sep41Payment") return no(`stellar operation ${keys[0]}`);
  // An operation without a source acts for the transaction's; without either, request.sourceWallet stands for it.
  const written = isRecord(op.sourceAccountAddress) && present(op.sourceAccountAddress.value) ? op.sourceAccountAddress.value : txSource;
  if (present(written) && !nonEmptyString(written)) return no("stellar operation source malformed");
  const source = sourceIdentity(nonEmptyString(written) ? written : null, ctx, network);
  if (source === null) return no("stellar operation without a source, or one that contradicts request.sourceWallet");
  const body = op.decodedBody[keys[0]];
  if (!isRecord(body)) return no("decoded operation malformed");
  const destination = isRecord(body.destinationAddress) ? body.destinationAddress.value : undefined;
  if (keys[0] === "payment") {
    if (only(body, ["destinationAddress", "asset", "assetRef", "amount"])) return no("payment has unclassified fields");
    // The OpenAPI document: "`10000000` (1 XLM in stroops)" — a classic payment's amount is raw, 7 decimals.
    const raw = integer(body.amount);
    // `assetRef` is "a weak reference … not guaranteed to be valid" (OpenAPI): the asset is `asset`.
    const asset = body.asset;
    if (raw === null || !nonEmptyString(destination) || !nonEmptyString(asset)) return no("payment malformed");
    return { asset: assetIdentity(asset), network, amount: raw.div(10_000_000), raw, source, destination };
  }
  if (keys[0] === "sep41Payment") {
    if (only(body, ["sourceAddress", "destinationAddress", "contractAddress", "assetRef", "rawAmount", "spenderAddress"])) return no("sep41Payment has unclassified fields");
    const spender = isRecord(body.spenderAddress) ? body.spenderAddress.value : undefined;
    const from = isRecord(body.sourceAddress) ? body.sourceAddress.value : undefined;
    if (present(spender) && spender !== written) return no("sep41Payment spent by someone else's allowance");
    if (present(from) && from !== written) return no("sep41Payment source contradicts the operation's");
    const raw = integer(body.rawAmount);
    const asset = body.contractAddress;
    if (raw === null || !nonEmptyString(destination) || !nonEmptyString(asset)) return no("sep41Payment malformed");
    return { asset: assetIdentity(asset), network, amount: null, raw, source, destination };
  }
  return no(`stellar operation ${String(keys[0])}`); // not reached: checked above
}

// ---- chain objects that must say exactly what the transfers say ----

const ZERO = new Set(["", "0", "0x", "0x0"]);

function bigIntOf(value: unknown): bigint | null {
  if (typeof value !== "string" || value.length > 100) return null;
  if (/^[0-9]+$/.test(value) || /^0x[0-9a-fA-F]+$/.test(value)) return BigInt(value);
  return null;
}

function evmTransaction(value: unknown, transfers: OracleTransfer[]): string | null {
  if (!present(value)) return null;
  if (!isRecord(value)) return "evmTransaction is not an object";
  const extra = only(value, ["fromAddress", "toAddress", "value", "data", "fee", "authorizationDetails", "signature", "providedNonce", "nonce"]);
  if (extra) return `evmTransaction.${extra}`;
  const auth = value.authorizationDetails;
  if (present(auth)) {
    if (!isRecord(auth) || only(auth, ["authorizationList"])) return "evmTransaction.authorizationDetails";
    if (present(auth.authorizationList) && !(Array.isArray(auth.authorizationList) && auth.authorizationList.length === 0)) return "EIP-7702 authorizationList";
  }
  const to = isRecord(value.toAddress) ? value.toAddress.value : undefined;
  const from = isRecord(value.fromAddress) ? value.fromAddress.value : undefined;
  const wei = present(value.value) && !ZERO.has(value.value as string) ? bigIntOf(value.value) : 0n;
  const data = present(value.data) && !ZERO.has(value.data as string) ? value.data : null;
  if (wei === null) return "evmTransaction.value malformed";
  if (typeof from === "string" && EVM_ADDRESS.test(from) && transfers.some((t) => EVM_ADDRESS.test(t.source) && t.source !== from.toLowerCase())) {
    return "evmTransaction.fromAddress contradicts the transfer's source";
  }
  if (wei === 0n && data === null) return null;
  const [t, more] = transfers;
  if (t === undefined || more !== undefined) return "evmTransaction moves value beside several (or no) transfers";
  if (typeof to !== "string") return "evmTransaction without a recipient";
  if (data === null) {
    // A native transfer: the value is the transfer's amount in wei, to its destination.
    const ok = t.asset === "assets/native.ethereum-mainnet" || /^assets\/native\.[a-z0-9-]+$/.test(t.asset);
    const amountWei = t.amount === null ? null : t.amount.times(new Dec(10).pow(18));
    return ok && amountWei !== null && amountWei.eq(wei.toString()) && normaliseAddress(to) === normaliseAddress(t.destination) ? null : "evmTransaction.value is not the transfer";
  }
  if (wei !== 0n) return "evmTransaction carries both value and calldata";
  return typeof data === "string" && tokenTransferCalldata(data, to, t) ? null : "evmTransaction calldata is not the transfer";
}

/** `transfer(destination, raw)` on the token's own contract, with raw matching the whole-unit amount. */
function tokenTransferCalldata(data: string, to: string, t: OracleTransfer): boolean {
  const erc20 = /^assets\/erc20\.[a-z0-9-]+\.(0x[0-9a-f]{40})$/.exec(t.asset);
  if (!erc20 || to.toLowerCase() !== erc20[1] || !EVM_ADDRESS.test(t.destination) || t.amount === null) return false;
  const m = /^0xa9059cbb0{24}([0-9a-f]{40})([0-9a-f]{64})$/.exec(data.toLowerCase());
  if (!m || `0x${m[1]}` !== t.destination.toLowerCase()) return false;
  const raw = new Dec(BigInt(`0x${m[2]}`).toString());
  return rawAgrees(Object.keys(KNOWN_DECIMALS).find((k) => k.toLowerCase() === t.asset) ?? t.asset, t.amount, raw);
}

function btcTransaction(value: unknown, transfers: OracleTransfer[]): string | null {
  if (!present(value)) return null;
  if (!isRecord(value) || only(value, ["inputs", "outputs", "fee", "asset"])) return "btcTransaction has unclassified fields";
  if (!present(value.outputs)) return null;
  if (!Array.isArray(value.outputs)) return "btcTransaction.outputs malformed";
  const paid = value.outputs.filter((o) => !(isRecord(o) && o.change === true));
  const unmatched = [...transfers];
  for (const o of paid) {
    const address = isRecord(o) && isRecord(o.address) ? o.address.value : undefined;
    const amount = isRecord(o) ? decimal(o.amount) : null;
    const i = unmatched.findIndex((t) => t.destination === address && amount !== null && t.amount !== null && t.amount.eq(amount));
    if (i < 0) return "a btcTransaction output the transfers do not show";
    unmatched.splice(i, 1);
  }
  return null;
}

// ---- the two policies the properties run ----

/** The permissive bundle (policies.ts): transfer kinds only, each transfer at most 100 (SEP-41: 100 × 10^7 raw). */
export function permissiveAllows(reading: Reading): string | null {
  if (!reading.signable) return reading.why;
  if (reading.transfers.length === 0) return "no transfers";
  for (const t of reading.transfers) {
    if (t.amount !== null ? t.amount.gt(100) : t.raw === null || t.raw.gt(1_000_000_000)) return "a transfer above 100";
  }
  return null;
}

const USDC = new Set(["assets/erc20.ethereum-mainnet.0xa0b86991c6218b36c1d19d4a2e9eb0ce3606eb48", "stellar:USDC-GA5ZSEJYB37JRC5AVCIA5MOP4RHTM335X2KGX3IHOJAPP5RE34K4KZVN"]);
const ETH = "assets/native.ethereum-mainnet";

/** policies/policy.yaml, read from its documentation: listed assets, trusted destinations, review thresholds, velocity. */
export function examplePolicyAllows(reading: Reading, view: AddressBookView): string | null {
  if (!reading.signable) return reading.why;
  if (reading.transfers.length === 0) return "no transfers";
  const sums = new Map<string, Big>();
  const counts = new Map<string, number>();
  // The review thresholds apply to what the whole transaction moves of each asset.
  const assetTotals = new Map<string, Big | null>();
  for (const t of reading.transfers) {
    const total = assetTotals.has(t.asset) ? assetTotals.get(t.asset)! : new Dec(0);
    assetTotals.set(t.asset, total === null || t.amount === null ? null : total.plus(t.amount));
  }
  for (const t of reading.transfers) {
    const usdc = USDC.has(t.asset);
    if (!usdc && t.asset !== ETH) return `asset ${t.asset} not listed`;
    const total = assetTotals.get(t.asset);
    if (t.amount === null || !total || total.gt(usdc ? 10_000 : 5)) return "above the review threshold";
    if (!trusted(t, reading.vault, view)) return `destination ${t.destination} not trusted`;
    const key = `${t.source}\u0000${usdc ? "usdc" : "eth"}`;
    sums.set(key, (sums.get(key) ?? new Dec(0)).plus(t.amount));
    counts.set(t.source, (counts.get(t.source) ?? 0) + 1);
  }
  for (const [key, sum] of sums) if (sum.gt(key.endsWith("usdc") ? 100_000 : 50)) return "above a daily limit";
  for (const count of counts.values()) if (count > 30) return "above the hourly count";
  return null;
}

/** An address-book entry through the quorum, or a wallet of this vault the synced copy knows and does not mark external. */
function trusted(t: OracleTransfer, vault: string, view: AddressBookView): boolean {
  const address = normaliseAddress(t.destination);
  if (view.entries.some((e) => e.signed !== false && e.network === t.network && normaliseAddress(e.address) === address)) return true;
  const wallet = walletOf(t.destination, vault) ?? ownWalletOf(view, t.destination, t.network);
  if (wallet === null || !wallet.startsWith(`${vault}/`)) return false;
  const known = view.wallets?.includes(wallet) ?? view.ownAddresses.some((o) => o.wallet === wallet);
  return known && !(view.externalWallets ?? []).includes(wallet);
}
