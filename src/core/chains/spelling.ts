/**
 * Why a raw account is not written as rules, the address book and the windows compare it, or null:
 * its family's own reading (registry.ts, each family's `readAccount`), and the spellings no chain
 * writes an account in, refused on every network (also where the network is unknown and no
 * family's check applies).
 */
import { EVM_SPELLING } from "./evm/index.js";
import type { ChainFamily } from "./family.js";
import { HEX32_SPELLING } from "./move/index.js";

/**
 * An EVM address spelt `0X…` or as its 40 hex digits alone. Clients such as go-ethereum read both
 * as the `0x` address, but rules, the address book and the windows compare only `0x…` without case:
 * a deny rule naming the address, its address-book entry and its per-destination window would not
 * see the other spellings. Refused, never guessed at: the initiator writes `0x`.
 */
const EVM_SPELT_OTHERWISE = /^(0X)?[0-9a-fA-F]{40}$/;

/**
 * Ethereum's other ways to name an account: an ENS name (`….eth`), an ICAP (`XE` and its check
 * digits) and an EIP-681 URI (`ethereum:…`). No other chain writes an account so, and a client
 * resolves each to an `0x` account that a deny rule names by its hex.
 */
const EVM_NAME_OR_URI = /(?:\.eth$|^XE[0-9]{2}[0-9A-Z]{30,31}$|^ethereum:)/i;

/**
 * A wallet's payment URI (BIP-21 `bitcoin:…` and its kin, `solana:…`, `ton:…`, `web+stellar:…`):
 * no chain's account is written so, and a wallet pays the account it holds, which a deny rule names
 * as written. TON's raw `0:…` is no URI: a scheme begins with a letter.
 */
const PAYMENT_URI = /^(?:bitcoin|litecoin|dogecoin|solana|ton|near|hedera|hbar|tron|cardano|algorand|web\+stellar|stellar|xrpl|ripple|xrp|polkadot|sui|aptos|cosmos):/i;

/**
 * A Sui or Aptos account (32 bytes) spelt `0X…`: their SDKs read it as the `0x` account, which
 * rules, the address book and the windows compare without case. The 64 digits alone are not
 * refused: a NEAR implicit account is written so.
 */
const HEX_ACCOUNT_SPELT_OTHERWISE = /^0X[0-9a-fA-F]{64}$/;

/** For a transfer's endpoint: the refusals of every network, then the family's. */
export function endpointSpellingIssue(value: string, family: ChainFamily | null): string | null {
  if (EVM_SPELT_OTHERWISE.test(value) || EVM_NAME_OR_URI.test(value)) return EVM_SPELLING;
  if (PAYMENT_URI.test(value)) return "an account must be written as its chain writes it, not as a payment URI";
  if (family?.name !== "evm" && HEX_ACCOUNT_SPELT_OTHERWISE.test(value)) return HEX32_SPELLING;
  return misspeltAccount(value, family);
}

/** For an account a chain object names (an authorization's signer, an allowance's spender): the family's reading. */
export function misspeltAccount(address: string, family: ChainFamily | null): string | null {
  const reading = family?.readAccount?.(address);
  return reading === undefined || reading.ok ? null : reading.reason;
}
