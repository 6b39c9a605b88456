/**
 * Reading one vault's copy from the custody API: the address book, the wallets (archived
 * included), each custodied wallet's addresses, read a few wallets at a time, and the names of
 * its external wallets (so that naming one never makes a transfer internal).
 */
import { err, ok, type Result } from "../core/errors.js";
import type { CustodyClient } from "./custody-client.js";
import { vaultId } from "./copy.js";
import type { ApiWallet } from "./custody-schemas.js";
import type { CustodyApiError } from "./errors.js";
import { createSyncBudget, type SyncLimits } from "./sync-budget.js";
import { isCustodiedWallet, toAddressBookEntries, toOwnAddresses, walletIdOf } from "./sync-mapping.js";
import type { AddressBookEntry, OwnWalletAddress } from "../core/addressbook/types.js";

export interface FetchedCopy {
  entries: AddressBookEntry[];
  ownAddresses: OwnWalletAddress[];
  /** `vaults/{v}/wallets/{w}` of each external wallet. */
  externalWallets: string[];
  /** `vaults/{v}/wallets/{w}` of each custodied wallet, with or without addresses. */
  custodiedWallets: string[];
}

/**
 * The vault's entries and its custodied wallets' addresses; `vault` is `vaults/{id}`. Every list
 * read counts against one budget (`limits`, else DEFAULT_SYNC_LIMITS).
 */
export async function fetchVaultCopy(
  client: CustodyClient,
  vault: string,
  walletConcurrency: number,
  limits: Partial<SyncLimits> = {},
): Promise<Result<FetchedCopy, CustodyApiError>> {
  const id = vaultId(vault);
  const budget = createSyncBudget(limits);
  const apiEntries = await client.listAddressBookEntries(id, budget);
  if (!apiEntries.ok) return apiEntries;
  const entries = toAddressBookEntries(vault, apiEntries.value);
  if (!entries.ok) return entries;
  const wallets = await client.listWallets(id, budget);
  if (!wallets.ok) return wallets;
  const custodied = wallets.value.filter(isCustodiedWallet);
  const external = externalWalletNames(vault, wallets.value);
  if (!external.ok) return external;
  const perWallet = await mapUntilError(custodied, walletConcurrency, async (wallet) => {
    const walletId = walletIdOf(vault, wallet);
    if (!walletId.ok) return walletId;
    const addresses = await client.listWalletAddresses(id, walletId.value, budget);
    return addresses.ok ? toOwnAddresses(vault, wallet.name, addresses.value) : addresses;
  });
  if (!perWallet.ok) return perWallet;
  // Each custodied wallet's name was checked to be under the vault by walletIdOf above.
  const custodiedWallets = custodied.map((w) => w.name);
  return ok({ entries: entries.value, ownAddresses: perWallet.value.flat(), externalWallets: external.value, custodiedWallets });
}

/** Checked to be named under the vault, like every other resource of the copy. */
function externalWalletNames(vault: string, wallets: readonly ApiWallet[]): Result<string[], CustodyApiError> {
  const names: string[] = [];
  for (const wallet of wallets.filter((w) => !isCustodiedWallet(w))) {
    const id = walletIdOf(vault, wallet);
    if (!id.ok) return id;
    names.push(wallet.name);
  }
  return ok(names);
}

/** Runs `task` over `items`, at most `limit` at a time; stops starting new ones after the first error. */
async function mapUntilError<T, R, E>(items: readonly T[], limit: number, task: (item: T) => Promise<Result<R, E>>): Promise<Result<R[], E>> {
  const results: R[] = new Array<R>(items.length);
  let next = 0;
  let failure: { error: E } | undefined;
  const worker = async () => {
    while (failure === undefined && next < items.length) {
      const index = next++;
      const result = await task(items[index]!);
      if (!result.ok) failure ??= { error: result.error };
      else results[index] = result.value;
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, Math.min(limit, items.length)) }, worker));
  return failure === undefined ? ok(results) : err(failure.error);
}
