/**
 * Equality and membership of strings in policy JSON-logic, under docs/interface.md section 4's
 * normalisation: a chain address whose letter case is only a checksum or a spelling (EVM, one-case
 * segwit) and an `assets/…` name with an EVM contract part compare without that case, exactly as
 * the address book, the velocity groups and the ledger already compare them. Without this, a deny
 * rule naming `0x5290…9EE7` would miss the same address sent as `0x5290…9ee7`, and a per-asset
 * rule would miss USDC spelt with its contract in checksum case while the ledger charged it as USDC.
 * A Stellar account (`G…`) also names its muxed addresses (`M…`), as the velocity groups count them.
 * Two `assets/…` names of one asset identity (src/transaction/assets.ts: standard and network in
 * any case, a Solana token under `spl`, `spl-token` or `spl-token-2022`, an ERC-20 contract with
 * `0x`, `0X` or neither, a TRC-20 contract in base58 or in hex, a jetton's master in any TON
 * spelling) are equal too, so a rule
 * naming one spelling names the others, as the ledger counts them together. A Tron address in hex
 * (`41…`) and its base58 address (`T…`) are equal too, as the address book and the ledger read them,
 * and so are a TON account's raw, bounceable and non-bounceable spellings (facts/ton-address.ts).
 * A bare Stellar asset as an operation writes it (`USDC-G…`, a contract `C…`, `native`) is its API
 * name on the public network (`assets/asset.stellar-mainnet.USDC-G…`, `assets/native.stellar-mainnet`),
 * as the ledger counts them together: a limit naming one spelling missed the other (found by a
 * review of aliasing). Text carries no network, so a bare asset of a testnet transaction matches the
 * mainnet name too; a rule that must tell them apart reads `transfer.network`. An XRP Ledger account
 * (`r…`) names its X-addresses as a Stellar account names its muxed addresses. A Substrate account
 * is one under every network's SS58 prefix (facts/ss58-address.ts).
 */
import { isCaseFreeAddress, normaliseAddress } from "./accounts.js";
import { stellarBaseAccount } from "./stellar/muxed.js";
import { tronBase58Of } from "./tron/hex.js";
import { substrateAccount } from "./substrate/ss58.js";
import { tonAccount } from "./ton/address.js";
import { xrplXAddress } from "./xrpl/address.js";
import { canonicalAssetName, structuredIdentity } from "./assets.js";
import { isStellarBareAsset } from "./stellar/assets.js";
import { describeValue, LogicError } from "../policy/logic-error.js";
import { StringList } from "../policy/string-lists.js";

const EVM_ASSET = /^assets\/.*\.0x[0-9a-fA-F]{40}$/;
const EVM_CONTRACTS = /\.0x[0-9a-fA-F]{40}/g;

/** Whether a string's case carries no meaning: a case-free address, or an asset with an EVM contract. */
const isCaseFree = (text: string): boolean => isCaseFreeAddress(text) || EVM_ASSET.test(text);

/** The spelling two equal values share. */
const comparable = (text: string): string => (EVM_ASSET.test(text) ? canonicalAssetName(text) : normaliseAddress(text));

/**
 * Two strings naming the same address or asset, or equal as written. Strings that differ other
 * than by case (the common case: an asset against each entry of a list) are told apart by length
 * and lower case before any pattern runs: this is in every `in` and `==` of every rule.
 */
export function sameText(a: string, b: string): boolean {
  if (a === b) return true;
  if (sameTonAccount(a, b) || sameSubstrateAccount(a, b) || xrplAccountOf(a, b) || xrplAccountOf(b, a)) return true;
  if (a.length !== b.length) return subaccountOf(a, b) || subaccountOf(b, a) || sameAssetSpeltLonger(a, b) || tronInHex(a, b) || tronInHex(b, a) || stellarNamed(a, b) || stellarNamed(b, a) || xrplSubaccountOf(a, b) || xrplSubaccountOf(b, a) || sameJetton(a, b);
  if (a.toLowerCase() !== b.toLowerCase()) return sameJetton(a, b);
  return (isCaseFree(a) && isCaseFree(b) && comparable(a) === comparable(b)) || sameAsset(a, b);
}

/** Two `assets/…` names of one identity. */
const sameAsset = (a: string, b: string): boolean =>
  a.startsWith("assets/") && b.startsWith("assets/") && structuredIdentity(a) === structuredIdentity(b);

/**
 * How much longer one spelling of an asset can be than another: `0x` before an ERC-20 contract (2);
 * a Solana token's `spl`, `spl-token`, `spl-token-2022` (5, 6, 11); a Tron contract in hex (`41…`,
 * 42) against base58 (`T…`, 34): 8. Told apart by length first: this is in every `in` over a list
 * of assets.
 */
const SPELLING_GAPS = new Set([2, 5, 6, 8, 11]);
const sameAssetSpeltLonger = (a: string, b: string): boolean => SPELLING_GAPS.has(Math.abs(a.length - b.length)) && sameAsset(a, b);

/**
 * Whether `muxed` is a Stellar muxed address (`M…`) of the account `account` (`G…`). A rule naming
 * an account names every sub-account of it — the payment lands in that account either way — so a
 * deny rule on `G…` catches its `M…` addresses. The relation is tried both ways because an
 * operation cannot tell the rule's text from the transaction's; that is why a rule may not name an
 * `M…` at all (validate-logic.ts), and pins a sub-account with `transfer.destination.muxedId`.
 */
function subaccountOf(muxed: string, account: string): boolean {
  return muxed.length === 69 && muxed[0] === "M" && account.length === 56 && account[0] === "G" && stellarBaseAccount(muxed) === account;
}

/** Whether `hex` is the Tron address `base58` written in hex: 42 characters against 34, told apart by length first. */
const tronInHex = (hex: string, base58: string): boolean => hex.length === 42 && base58.length === 34 && tronBase58Of(hex) === base58;

/** A TON account's spellings are 48 (user-friendly), 66 or 67 (raw) characters long: told apart by length first. */
const TON_LENGTHS = new Set([48, 66, 67]);

/**
 * Two names of one jetton, its master spelt raw, bounceable or not (assets.ts `structuredIdentity`),
 * as the ledger counts them together: a limit naming `EQ…` missed `UQ…`. Told apart by the
 * master's length first.
 */
function sameJetton(a: string, b: string): boolean {
  const masterLength = (asset: string) => asset.length - asset.lastIndexOf(".") - 1;
  return a.startsWith("assets/") && b.startsWith("assets/") && TON_LENGTHS.has(masterLength(a)) && TON_LENGTHS.has(masterLength(b)) && sameAsset(a, b);
}
function sameTonAccount(a: string, b: string): boolean {
  if (!TON_LENGTHS.has(a.length) || !TON_LENGTHS.has(b.length)) return false;
  const account = tonAccount(a);
  return account !== null && account === tonAccount(b);
}

const STELLAR_MAINNET_ASSET = "assets/asset.stellar-mainnet.";
const STELLAR_MAINNET_NATIVE = "assets/native.stellar-mainnet";
/** Whether `named` is the API's name of the bare Stellar asset `bare` on the public network; told apart by length first. */
function stellarNamed(bare: string, named: string): boolean {
  if (bare === "native") return named.length === STELLAR_MAINNET_NATIVE.length && structuredIdentity(named) === STELLAR_MAINNET_NATIVE;
  return named.length === STELLAR_MAINNET_ASSET.length + bare.length && isStellarBareAsset(bare) && structuredIdentity(named) === STELLAR_MAINNET_ASSET + bare;
}

/**
 * Whether `xAddress` is an XRP X-address of the classic account `account`, with or without a tag:
 * the ledger pays the account either way. Tried both ways, as subaccountOf is, which is why a rule
 * may not name an X-address with a tag (validate-logic.ts). X-addresses are 47 characters, classic
 * ones 25 to 35: told apart by length first.
 */
function xrplSubaccountOf(xAddress: string, account: string): boolean {
  return xAddress.length === 47 && account[0] === "r" && account.length <= 35 && xrplXAddress(xAddress)?.account === account;
}

/**
 * Whether `untagged` is an X-address without a tag (its classic account, as normaliseAddress reads it)
 * and `xAddress` an X-address of the same account: a rule naming the account in that spelling catches
 * its tagged X-addresses as one naming `r…` does (found by a review of this stop's changes). Two
 * tagged X-addresses stay apart. Both 47 characters: told apart by length first.
 */
function xrplAccountOf(untagged: string, xAddress: string): boolean {
  if (untagged.length !== 47 || xAddress.length !== 47) return false;
  const account = xrplXAddress(untagged);
  return account !== null && account.tag === null && xrplXAddress(xAddress)?.account === account.account;
}

/** A Substrate account's SS58 spellings are 46 to 50 characters long: told apart by length first. */
const isSs58Length = (text: string): boolean => text.length >= 46 && text.length <= 50;
function sameSubstrateAccount(a: string, b: string): boolean {
  if (!isSs58Length(a) || !isSs58Length(b)) return false;
  const account = substrateAccount(a);
  return account !== null && account === substrateAccount(b);
}

/** `===` with sameText for two strings. */
export function strictEqual(a: unknown, b: unknown): boolean {
  return typeof a === "string" && typeof b === "string" ? sameText(a, b) : a === b;
}

/**
 * json-logic-js's `in` — membership of an array, or a substring of a string — with sameText. A list
 * written as one string in the rule reaches here as the array of its items (string-lists.ts), so a
 * string here is text the rule did not write (a note, a memo): a value is looked for inside it. There,
 * a case-free address is looked for without case, and an asset with an EVM contract with only the
 * contracts' case set aside: the rest of an asset name (`assets/ERC20.…`) keeps its case there, and
 * its other spellings are not looked for. An account with other spellings (TON, Substrate, Tron, XRP)
 * is compared with each part of the text, split at any character an address does not hold. Only text
 * is looked for in text: json-logic-js would look for null, a number or a boolean as its spelling
 * (`"9, 10".indexOf(1)`), so a missing fact was found in any text holding "null" and the hour 1 in "10".
 */
function contains(needle: unknown, haystack: unknown): boolean {
  if (Array.isArray(haystack)) return haystack.some((item) => strictEqual(needle, item));
  if (haystack instanceof StringList) return inStringList(needle, haystack);
  if (typeof haystack !== "string") return false;
  if (typeof needle !== "string") return false;
  if (haystack.includes(needle)) return true;
  const tron = tronBase58Of(needle);
  if (tron !== null && haystack.includes(tron)) return true;
  if (isCaseFreeAddress(needle)) return haystack.toLowerCase().includes(needle.toLowerCase());
  if (needle.length === 69 && needle[0] === "M") return haystack.includes(stellarBaseAccount(needle));
  const xrpl = needle.length === 47 ? xrplXAddress(needle) : null;
  if (xrpl !== null && haystack.includes(xrpl.account)) return true;
  if (hasOtherSpellings(needle)) return haystack.split(LIST_SEPARATOR).some((item) => item !== "" && sameText(needle, item));
  return EVM_ASSET.test(needle) && haystack.replace(EVM_CONTRACTS, (contract) => contract.toLowerCase()).includes(canonicalAssetName(needle));
}

/**
 * `in` over a list written as one string (string-lists.ts): a value is one of its items as in an
 * array. Its items are text: a number or true/false looked for there is an evaluation error, never
 * "not found", so that a deny rule written so denies (it counts as matched) rather than sign.
 */
function inStringList(needle: unknown, list: StringList): boolean {
  if (typeof needle === "number" || typeof needle === "boolean") {
    throw new LogicError(`"in" looks for ${describeValue(needle)} among the items of a list written as one string, which are text: write the list as an array of ${typeof needle === "number" ? "numbers" : "true or false"}`);
  }
  return list.items.some((item) => strictEqual(needle, item));
}

/**
 * What separates the parts of text in which an account with other spellings is looked for: any
 * character none of those spellings holds (base58, base64 with `+/` or `-_`, a raw TON
 * `workchain:hex`), so an account quoted, bracketed or separated by `|` is still found.
 */
const LIST_SEPARATOR = /[^A-Za-z0-9_+/:-]+/;
const TRON_BASE58 = /^T[1-9A-HJ-NP-Za-km-z]{33}$/;
const XRP_CLASSIC = /^r[1-9A-HJ-NP-Za-km-z]{24,34}$/;
/**
 * Whether an account may be written in the text in a spelling a substring search cannot find: a TON
 * account raw or user-friendly, a Substrate account under another SS58 prefix, a Tron address in hex,
 * an XRP account as an X-address. Then the text's parts are compared one by one, as an array's items
 * (found by a review of this stop's changes: a deny list in one string naming `UQ…` let `EQ…` through).
 */
function hasOtherSpellings(needle: string): boolean {
  return (
    (TON_LENGTHS.has(needle.length) && tonAccount(needle) !== null) ||
    (isSs58Length(needle) && substrateAccount(needle) !== null) ||
    TRON_BASE58.test(needle) ||
    XRP_CLASSIC.test(needle) ||
    (needle.length === 47 && xrplXAddress(needle) !== null)
  );
}

export const TEXT_OPERATIONS: Readonly<Record<string, (...args: unknown[]) => unknown>> = {
  "===": (a, b) => strictEqual(a, b),
  "!==": (a, b) => !strictEqual(a, b),
  in: (needle, haystack) => contains(needle, haystack),
};
