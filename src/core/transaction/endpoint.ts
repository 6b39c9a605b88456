/**
 * Sources and destinations are written one of three ways (custody API `details.assetTransfer`):
 * a wallet resource name, a wallet-address resource name, or a raw chain address. The short form
 * `wallets/{w}` (the API's own examples write it so) names a wallet of the transaction's vault and
 * is qualified with it, so a wallet has one identity whichever form a body uses. Anything that looks
 * like a resource name but does not parse as one is refused (null): it is never taken for a raw
 * address, and a near miss such as a trailing slash can never pass as one of the vault's wallets.
 */
import { canonicalAccount } from "../chains/canonical.js";
import { isRawAddress, SHORT_WALLET_NAME, WALLET_ADDRESS_NAME, WALLET_NAME } from "./resource-names.js";
import type { Endpoint } from "./types.js";

const VAULT_OF = /^(vaults\/[^/]+)\//;

/**
 * The endpoint `value` names, or null when it is neither a well-formed resource name nor a raw
 * address. A raw address is read once, here, into its family's canonical spelling (src/core/chains/canonical.ts):
 * rules, the address book and the windows compare that one string; `value` keeps it as given.
 */
export function parseEndpoint(value: string, vault: string): Endpoint | null {
  const name = qualify(value, vault);
  if (WALLET_NAME.test(name)) return { value, kind: "wallet", wallet: name, address: null };
  const walletAddress = WALLET_ADDRESS_NAME.exec(name);
  if (walletAddress?.[1] !== undefined) return { value, kind: "walletAddress", wallet: walletAddress[1], address: null };
  return isRawAddress(value) ? { value, kind: "address", wallet: null, address: canonicalAccount(value) } : null;
}

/** An endpoint that is a wallet named outright (a BTC transfer's source, from `request.sourceWallet`). */
export const walletEndpoint = (wallet: string): Endpoint => ({ value: wallet, kind: "wallet", wallet, address: null });

/**
 * A wallet resource name, full or short (`wallets/{w}`, qualified with the transaction's vault).
 * Returns null for anything that is not a wallet name.
 */
export function qualifyWallet(value: string, vault: string): string | null {
  const name = qualify(value, vault);
  return WALLET_NAME.test(name) ? name : null;
}

const qualify = (value: string, vault: string): string => (SHORT_WALLET_NAME.test(value) ? `${vault}/${value}` : value);

/** `vaults/{v}` of a wallet (or any vault-scoped) resource name, or null. */
export function vaultOf(resourceName: string): string | null {
  return VAULT_OF.exec(resourceName)?.[1] ?? null;
}
