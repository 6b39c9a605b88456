/** Test support: address-book views and parsed transactions for the facts tests. */
import type { AddressBookEntry, AddressBookView, OwnWalletAddress } from "../addressbook/types.js";
import { parseTransaction } from "../transaction/parse.js";
import type { Transaction } from "../transaction/types.js";
import { VAULT } from "../transaction/test-bodies.js";

export function view(
  parts: { entries?: Partial<AddressBookEntry>[]; own?: OwnWalletAddress[]; external?: string[]; vault?: string; syncedAt?: Date | null } = {},
): AddressBookView {
  return {
    configured: true,
    vault: parts.vault ?? VAULT,
    syncedAt: parts.syncedAt === undefined ? new Date("2026-11-21T11:59:00Z") : parts.syncedAt,
    entries: (parts.entries ?? []).map((e, i) => ({
      name: `${VAULT}/addressBookEntries/e${i}`,
      displayName: `Entry ${i}`,
      address: "0x0",
      network: "ethereum-mainnet",
      signed: true,
      ...e,
    })),
    ownAddresses: parts.own ?? [],
    ...(parts.external === undefined ? {} : { externalWallets: parts.external }),
  };
}

export function tx(body: unknown): Transaction {
  const result = parseTransaction(body);
  if (!result.ok) throw new Error(`test body refused: ${result.error.publicMessage}`);
  return result.value;
}
