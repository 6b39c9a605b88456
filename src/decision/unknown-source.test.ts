import { describe, expect, it } from "vitest";
import { notConfiguredView, type AddressBookView } from "../core/addressbook/types.js";
import type { TransferFacts } from "../core/facts/types.js";
import type { WindowSpec } from "../core/policy/types.js";
import type { Transfer } from "../core/transaction/types.js";
import { unknownSourceHold } from "./unknown-source.js";

const VAULT = "vaults/v1";
const W1 = `${VAULT}/wallets/w1`;
const EVM = "0x8ba1f109551bd432803012645ac136ddd64dba72";
const SENDER = "GSENDERAXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXX";
const SPONSOR = "GSPONSORXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXX";
const BY_SOURCE = [{ name: "w", durationSeconds: 86_400, groupBy: ["sourceWallet", "asset"], measure: "count" }] as unknown as WindowSpec[];

/** A transfer from `address` (raw) whose facts give `wallet` (named, found in the copy, or claimed). */
const from = (address: string | null, wallet: string | null, extra: { network?: string; sponsor?: string } = {}) =>
  ({
    network: extra.network ?? "ethereum-mainnet",
    sponsor: extra.sponsor ?? null,
    source: { value: address ?? wallet, kind: address ? "address" : "wallet", wallet, address, internal: false },
  }) as unknown as TransferFacts;
const synced = (own: { address: string; network: string }[] = []): AddressBookView => ({
  ...notConfiguredView(VAULT),
  configured: true,
  syncedAt: new Date(0),
  ownAddresses: own.map((o) => ({ wallet: W1, walletAddress: null, ...o })),
});
const hold = (transfers: TransferFacts[], view: AddressBookView, windows = BY_SOURCE, evmSender: string | null = null, operations = false) => {
  const indexed = transfers.map((t, index) => ({ ...t, index }));
  const listed = indexed.map(() => (operations ? { stellarOperation: true as const } : {})) as unknown as Transfer[];
  const sender = evmSender === null ? null : { field: "evmTransaction.fromAddress", chain: "EVM", address: evmSender };
  return unknownSourceHold(windows, indexed, view, { vault: VAULT, sender, transfers: listed });
};
/** A Stellar transaction's operations, without sync. */
const holdOperations = (transfers: TransferFacts[]) => hold(transfers, notConfiguredView(VAULT), BY_SOURCE, null, true);

describe("a source whose wallet is not known from something countersign can check", () => {
  it("holds nothing when no window groups by source wallet, or the body names the wallet", () => {
    expect(hold([from(EVM, null)], synced(), [{ ...BY_SOURCE[0]!, groupBy: ["asset", "destination"] }])).toBeNull();
    expect(hold([from(null, W1)], synced())).toBeNull();
    expect(hold([from(null, W1)], notConfiguredView(VAULT))).toBeNull();
  });

  it("with sync: a raw address is known only when the copy lists it; a claimed wallet does not stand in", () => {
    expect(hold([from(EVM, W1)], synced([{ address: EVM, network: "ethereum-mainnet" }]))).toBeNull();
    expect(hold([from(EVM, `${VAULT}/wallets/decoy`)], synced())).toMatchObject({ decision: "defer", reason: expect.stringContaining(EVM) });
    expect(hold([from(null, W1), from(EVM, null)], synced())).toMatchObject({ decision: "defer" });
  });

  it("without sync: a claim is taken, unless it may name a Stellar transaction-level source other than the operation's", () => {
    expect(hold([from(EVM, W1)], notConfiguredView(VAULT))).toBeNull();
    expect(hold([from(EVM, W1, { sponsor: `${VAULT}/wallets/gas` })], notConfiguredView(VAULT))).toBeNull();
    expect(holdOperations([from(SENDER, W1, { network: "stellar-mainnet", sponsor: SENDER })])).toBeNull();
    expect(holdOperations([from(SENDER, W1, { network: "stellar-mainnet", sponsor: SPONSOR })])).toMatchObject({ decision: "deny", reason: expect.stringContaining(SENDER) });
    expect(hold([from(EVM, null)], notConfiguredView(VAULT))).toMatchObject({ decision: "deny" });
  });

  it("without sync, a Stellar operation: a transaction-level source spelt as a wallet name, or none, cannot be compared with the operation's account, so the claim does not stand", () => {
    expect(holdOperations([from(SENDER, W1, { network: "stellar-mainnet", sponsor: `${VAULT}/wallets/gas` })])).toMatchObject({
      decision: "deny",
      reason: expect.stringContaining(SENDER),
    });
    expect(holdOperations([from(SENDER, W1, { network: "stellar-mainnet", sponsor: W1 })])).toMatchObject({ decision: "deny" });
    expect(holdOperations([from(SENDER, W1, { network: "stellar-mainnet" })])).toMatchObject({ decision: "deny" });
    // Decided by where the transfers came from, not by how the network is spelt.
    expect(holdOperations([from(SENDER, W1, { network: "Stellar-Mainnet" })])).toMatchObject({ decision: "deny" });
  });

  it("without sync, a plain asset transfer on Stellar: no operation source, so the claim stands as on any chain", () => {
    expect(hold([from(SENDER, W1, { network: "stellar-mainnet" })], notConfiguredView(VAULT))).toBeNull();
    expect(hold([from(SENDER, W1, { network: "stellar-mainnet", sponsor: `${VAULT}/wallets/gas` })], notConfiguredView(VAULT))).toBeNull();
  });

  it("a wallet named beside an EVM transaction is known only when the copy lists the address it pays from", () => {
    expect(hold([from(null, W1)], synced([{ address: EVM, network: "ethereum-mainnet" }]), BY_SOURCE, EVM)).toBeNull();
    expect(hold([from(EVM, W1)], notConfiguredView(VAULT), BY_SOURCE, EVM)).toBeNull(); // its own raw source, checked when parsed
    expect(hold([from(null, W1)], synced(), BY_SOURCE, EVM)).toMatchObject({ decision: "defer", reason: expect.stringContaining(EVM) });
    expect(hold([from(null, W1)], notConfiguredView(VAULT), BY_SOURCE, EVM)).toMatchObject({ decision: "deny", reason: expect.stringContaining(EVM) });
  });
});
