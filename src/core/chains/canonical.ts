/**
 * The one spelling of each account and asset. The transaction parser writes an account in it
 * (src/core/transaction/endpoint.ts), the facts write an asset in it, and the policy reads a rule's
 * literal in it (src/core/policy/canonical-literals.ts), so that a rule's `==`, `===` and `in` are plain,
 * transitive equality: every spelling of one account or asset is one string before a rule sees it.
 */
import { StrKey } from "@stellar/stellar-base";
import { isValidClassicAddress } from "ripple-address-codec";
import { normaliseAddress } from "./accounts.js";
import { structuredIdentity } from "./assets.js";
import { memoised } from "./codecs/memoised.js";
import { isStellarBareAsset } from "./stellar/assets.js";

/** A raw account in its family's canonical spelling (accounts.ts `normaliseAddress`). */
export const canonicalAccount = (address: string): string => normaliseAddress(address);

/** An account a chain object names (an allowance's spender, an authorization's signer), canonical; null stays null. */
export const canonicalAccountOrNull = (address: string | null | undefined): string | null => (address == null ? null : canonicalAccount(address));

/** An `assets/…` name as the windows count it (assets.ts structuredIdentity); other text, and null, as they are. */
export const canonicalAssetOrNull = (asset: string | null | undefined): string | null => (asset == null ? null : asset.startsWith("assets/") ? structuredIdentity(asset) : asset);

/**
 * A rule's text as the facts would spell it when it names an account or an `assets/…` asset; any
 * other text as written. Memoised: a rule's list holds the same literals at every evaluation.
 */
export const canonicalLiteral = memoised((text: string): string => (text.startsWith("assets/") ? structuredIdentity(text) : canonicalAccount(text)));

/**
 * Whether `text` is an account that has sub-accounts whose payments it receives: a Stellar `G…`
 * account (its muxed `M…` addresses) or an XRP Ledger classic `r…` account (its X-addresses with a
 * tag). A payment to a sub-account reaches the facts as the sub-account's address, which is not
 * equal to this text; its `baseAccount` is.
 */
export function hasSubAccounts(text: string): boolean {
  const account = canonicalLiteral(text);
  if (account.length === 56 && account[0] === "G") return StrKey.isValidEd25519PublicKey(account);
  return account[0] === "r" && account.length >= 25 && account.length <= 35 && isValidClassicAddress(account);
}

/** What the accounts hasSubAccounts knows are, for a message. */
export const SUB_ACCOUNTS = "an account with sub-accounts (Stellar muxed addresses, XRP X-addresses with a tag)";

/**
 * For an asset as a Stellar operation writes it (`native`, `CODE-G…`, a contract `C…`), which names
 * no network while the facts name every Stellar asset by its network's API name: that name on the
 * public network, for a message; null for any other text.
 */
export function networklessAssetName(text: string): string | null {
  if (!isStellarBareAsset(text)) return null;
  return text === "native" ? "assets/native.stellar-mainnet" : `assets/asset.stellar-mainnet.${text}`;
}
