/**
 * zod schemas of the custody API list answers that the sync reads (openapi: v2AddressBookEntry,
 * v2Wallet, v2WalletAddress and their list responses). Unknown fields are allowed and dropped;
 * the fields countersign relies on are required, so a changed or broken answer fails the sync
 * instead of silently producing an empty or partial copy.
 */
import { z } from "zod";

const nonEmpty = z.string().min(1);

export const apiAddressBookEntry = z.object({
  name: nonEmpty,
  address: nonEmpty,
  displayName: z.string().nullish(),
  network: nonEmpty,
  /** Absent in older answers; `false` means the entry has not been through the quorum. */
  signed: z.boolean().nullish(),
});

export const apiWallet = z.object({
  name: nonEmpty,
  displayName: z.string().nullish(),
  archived: z.boolean().nullish(),
  /** Wallets not managed by the custody platform (tracked addresses), not MPC-controlled. */
  external: z.boolean().nullish(),
});

export const apiWalletAddress = z.object({
  name: nonEmpty,
  network: nonEmpty,
  /** Output only; an address that has not been derived yet has none. */
  address: z.string().nullish(),
});

const nextPageToken = z.string().nullish();

export const listAddressBookEntriesResponse = z.object({
  addressBookEntries: z.array(apiAddressBookEntry).nullish(),
  nextPageToken,
});
export const listWalletsResponse = z.object({ wallets: z.array(apiWallet).nullish(), nextPageToken });
export const listWalletAddressesResponse = z.object({
  walletAddresses: z.array(apiWalletAddress).nullish(),
  nextPageToken,
});

/**
 * Every top-level field the API documents for each list response (openapi v2List…Response): the
 * list, nextPageToken and totalSize. The gateway leaves each out when empty, so `{}` is an empty
 * list; a body holding none of them but other fields (a google.rpc.Status `code`/`message` sent
 * with 200 by a misrouted gateway) is not this list's answer at all.
 */
export const LIST_RESPONSE_FIELDS = {
  ListAddressBookEntries: ["addressBookEntries", "nextPageToken", "totalSize"],
  ListWallets: ["wallets", "nextPageToken", "totalSize"],
  ListWalletAddresses: ["walletAddresses", "nextPageToken", "totalSize"],
} as const satisfies Record<string, readonly string[]>;

export type ListOperation = keyof typeof LIST_RESPONSE_FIELDS;

export type ApiAddressBookEntry = z.infer<typeof apiAddressBookEntry>;
export type ApiWallet = z.infer<typeof apiWallet>;
export type ApiWalletAddress = z.infer<typeof apiWalletAddress>;
