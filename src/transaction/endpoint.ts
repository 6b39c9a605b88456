/**
 * Sources and destinations are written one of three ways (custody API `details.assetTransfer`):
 * a wallet resource name, a wallet-address resource name, or a raw chain address. Only the exact
 * resource-name forms count as wallets; anything else is a raw address, so a near-miss such as a
 * trailing slash can never make an outside address look like one of the vault's wallets.
 */
import type { Endpoint } from "./types.js";

/** Ids inside resource names, the same alphabet the transaction name is held to. */
const ID = "[A-Za-z0-9_-]{1,128}";
const WALLET = new RegExp(`^vaults/${ID}/wallets/${ID}$`);
const WALLET_ADDRESS = new RegExp(`^(vaults/${ID}/wallets/${ID})/addresses/${ID}$`);
const SHORT_WALLET = new RegExp(`^wallets/${ID}$`);
const VAULT_OF = /^(vaults\/[^/]+)\//;

export function parseEndpoint(value: string): Endpoint {
  if (WALLET.test(value)) return { value, kind: "wallet", wallet: value, address: null };
  const walletAddress = WALLET_ADDRESS.exec(value);
  if (walletAddress?.[1] !== undefined) {
    return { value, kind: "walletAddress", wallet: walletAddress[1], address: null };
  }
  return { value, kind: "address", wallet: null, address: value };
}

/** An endpoint that is a wallet named outright (a BTC transfer's source, from `request.sourceWallet`). */
export const walletEndpoint = (wallet: string): Endpoint => ({ value: wallet, kind: "wallet", wallet, address: null });

/**
 * `request.sourceWallet` as a full wallet name. The API's own example writes it `wallets/{w}`;
 * such a name is qualified with the transaction's vault so that a wallet's transfers group together
 * whichever shape they arrive in. Returns null for anything that is not a wallet name.
 */
export function qualifyWallet(value: string, vault: string): string | null {
  if (WALLET.test(value)) return value;
  if (SHORT_WALLET.test(value)) return `${vault}/${value}`;
  return null;
}

/** `vaults/{v}` of a wallet (or any vault-scoped) resource name, or null. */
export function vaultOf(resourceName: string): string | null {
  return VAULT_OF.exec(resourceName)?.[1] ?? null;
}
