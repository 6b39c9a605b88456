/**
 * Comparing chain addresses where the network is not known (a rule's literal, an address-book
 * entry): each family's spellings of one account read as one. EVM addresses (0x + 40 hex) and Sui
 * or Aptos accounts (0x + 64 hex) are case-insensitive (the mixed case is only an EIP-55 checksum),
 * and so is a bech32 address written in one case (BIP-173 allows capitals for QR codes), known by
 * its checksum. A TON account is one whichever way it is spelt (ton/address.ts), and an XRP Ledger
 * X-address without a tag is its classic account (xrpl/address.ts); one with a tag, like a Stellar
 * muxed address, names a sub-account. A Substrate account is its generic SS58 spelling whatever its
 * network prefix (substrate/ss58.ts). A Tron address in hex is its base58 address `T…`. Every other
 * chain's addresses are compared exactly: base58 (Bitcoin legacy, Solana, Tron) and strkey
 * (Stellar) are case-sensitive.
 */
import { isOneCaseBech32 } from "./codecs/bech32.js";
import { isEvmAddress } from "./evm/networks.js";
import { stellarBaseAccount, stellarMuxedId } from "./stellar/muxed.js";
import { substrateAccount } from "./substrate/ss58.js";
import { tonAccount } from "./ton/address.js";
import { TRON_HEX, tronBase58 } from "./tron/hex.js";
import { xrplXAddress } from "./xrpl/address.js";

/** `0x` and 32 bytes of hex: a Sui or Aptos account. Hex has no case, so either case is the same account. */
const HEX_ACCOUNT = /^0x[0-9a-fA-F]{64}$/;

/** A Bitcoin segwit address (bech32/bech32m, BIP-173/350), in one case: mixed case is invalid. */
const BECH32_LOWER = /^(?:bc|tb|bcrt)1[02-9ac-hj-np-z]{8,87}$/;
const BECH32_UPPER = /^(?:BC|TB|BCRT)1[02-9AC-HJ-NP-Z]{8,87}$/;

/**
 * Whether `address`'s letter case carries no meaning: an EVM, a one-case segwit or bech32 of any
 * prefix (a deny rule naming `ltc1…` must catch `LTC1…`), a Tron hex, or a 32-byte hex (Sui, Aptos) address.
 */
export const isCaseFreeAddress = (address: string): boolean =>
  isEvmAddress(address) || BECH32_LOWER.test(address) || BECH32_UPPER.test(address) || TRON_HEX.test(address) || HEX_ACCOUNT.test(address) || isOneCaseBech32(address);

export const normaliseAddress = (address: string): string => {
  if (TRON_HEX.test(address)) return tronBase58(address);
  const ton = tonAccount(address);
  if (ton !== null) return ton;
  const xrpl = xrplXAddress(address);
  if (xrpl !== null && xrpl.tag === null) return xrpl.account;
  if (xrpl === null) {
    const substrate = substrateAccount(address);
    if (substrate !== null) return substrate;
  }
  return isCaseFreeAddress(address) ? address.toLowerCase() : address;
};

export const sameAddress = (a: string, b: string): boolean => normaliseAddress(a) === normaliseAddress(b);

/**
 * The account an address pays into, for the groups it counts in: a Stellar muxed address's `G…`
 * account, an XRP X-address's classic `r…` account (each tag would be a group of its own), any
 * other address as given. Never for matching a trusted destination, which stays exact.
 */
export function baseAccount(address: string): string {
  return xrplXAddress(address)?.account ?? stellarBaseAccount(address);
}

/**
 * The sub-account an address names on its account: a Stellar muxed address's id, or an XRP
 * X-address's tag, as a decimal string; null for any other address. A rule naming the account
 * catches both, so a rule that trusts an exchange pins this.
 */
/**
 * The account whose key signs for, and whose balance is, an address: a Stellar muxed address's
 * base `G…` account, any other address as given. For what an address spends from — never for
 * matching a trusted destination, which stays exact.
 */
export const signingAccount = (address: string): string => stellarBaseAccount(address);

export const subAccountId = (address: string): string | null => stellarMuxedId(address) ?? xrplXAddress(address)?.tag ?? null;
