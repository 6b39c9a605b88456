/**
 * From the custody API's resources to countersign's copy. Every resource must be named under the
 * vault that was asked for: an entry or address named under another vault would let one vault's
 * address book allow transfers of another, so such an answer fails the sync rather than being
 * filtered silently.
 */
import { err, ok, type Result } from "../core/errors.js";
import { CustodyApiError, type CustodyOperation } from "./errors.js";
import type { ApiAddressBookEntry, ApiWallet, ApiWalletAddress } from "./custody-schemas.js";
import type { AddressBookEntry, OwnWalletAddress } from "../core/addressbook/types.js";

/** `networks/ethereum-mainnet` → `ethereum-mainnet` */
export const networkId = (network: string): string => network.replace(/^networks\//, "");

/** The id after `prefix`, when `name` is exactly `prefix` + one path segment. */
function childId(name: string, prefix: string): string | null {
  if (!name.startsWith(prefix)) return null;
  const id = name.slice(prefix.length);
  return id.length > 0 && !id.includes("/") ? id : null;
}

const foreign = (operation: CustodyOperation, vault: string, what: string, name: string) =>
  err(new CustodyApiError("INCONSISTENT", operation, vault, `${what} "${name.slice(0, 120)}" is not named under ${vault}`));

export function toAddressBookEntries(vault: string, items: readonly ApiAddressBookEntry[]): Result<AddressBookEntry[], CustodyApiError> {
  const entries: AddressBookEntry[] = [];
  for (const item of items) {
    if (childId(item.name, `${vault}/addressBookEntries/`) === null) return foreign("ListAddressBookEntries", vault, "entry", item.name);
    entries.push({
      name: item.name,
      displayName: item.displayName ?? null,
      address: item.address,
      network: networkId(item.network),
      signed: item.signed ?? null,
    });
  }
  return ok(entries);
}

/** The wallet's id, checked to belong to the vault. */
export function walletIdOf(vault: string, wallet: ApiWallet): Result<string, CustodyApiError> {
  const id = childId(wallet.name, `${vault}/wallets/`);
  return id === null ? foreign("ListWallets", vault, "wallet", wallet.name) : ok(id);
}

/**
 * The wallet's own addresses. Addresses not derived yet (no `address`) cannot match a transfer
 * and are skipped.
 */
export function toOwnAddresses(vault: string, walletName: string, items: readonly ApiWalletAddress[]): Result<OwnWalletAddress[], CustodyApiError> {
  const own: OwnWalletAddress[] = [];
  for (const item of items) {
    if (childId(item.name, `${walletName}/addresses/`) === null) return foreign("ListWalletAddresses", vault, "wallet address", item.name);
    if (item.address === undefined || item.address === null || item.address === "") continue;
    own.push({ wallet: walletName, walletAddress: item.name, address: item.address, network: networkId(item.network) });
  }
  return ok(own);
}

/**
 * Whether the wallet's addresses count as the vault's own. External wallets are tracked
 * addresses the custody platform does not control (no MPC key): a transfer to one leaves
 * custody, so their addresses must not make a destination `internal`. Archived wallets are
 * still the vault's own (their keys are the vault's), so they count.
 */
export const isCustodiedWallet = (wallet: ApiWallet): boolean => wallet.external !== true;
