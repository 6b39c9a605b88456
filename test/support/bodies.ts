/** Webhook bodies for tests, built around the example vault of policies/tests/transactions. */
import { randomUUID } from "node:crypto";

export const VAULT = "vaults/5c3f1a2b9d7e";
export const HOT_WALLET = `${VAULT}/wallets/7a8b9c0d1e2f`;
export const COLD_WALLET = `${VAULT}/wallets/cold0001`;
export const ETH = "assets/native.ethereum-mainnet";
export const USDC = "assets/erc20.ethereum-mainnet.0xa0b86991c6218b36c1d19d4a2e9eb0ce3606eb48";

export function transactionName(prefix = "t"): string {
  return `${VAULT}/transactions/${prefix}${randomUUID().replaceAll("-", "")}`;
}

/** A reference-shape asset transfer; by default ETH between two wallets of the vault (internal). */
export function assetTransfer(overrides: { name?: string; amount?: string; asset?: string; source?: string; destination?: string } = {}) {
  return {
    name: overrides.name ?? transactionName(),
    state: "AWAITING_SIGNATURE",
    designatedSigners: ["users/policy-bot@treasury.example"],
    details: {
      assetTransfer: {
        asset: overrides.asset ?? ETH,
        amount: overrides.amount ?? "1.5",
        source: overrides.source ?? HOT_WALLET,
        destination: overrides.destination ?? COLD_WALLET,
      },
    },
  };
}

/** An API-shape batch of 1 ETH-wei transfers from the hot wallet to `count` distinct addresses, 0x…`first` onwards. */
export function batchTransfer(count: number, first = 1) {
  return {
    name: transactionName("batch"),
    type: "TRANSACTION",
    subType: "BATCH_TRANSFER",
    state: "AWAITING_SIGNATURE",
    network: "networks/ethereum-mainnet",
    request: { sourceWallet: HOT_WALLET },
    transfers: Array.from({ length: count }, (_, i) => ({
      destinationAddress: { value: `0x${(first + i).toString(16).padStart(40, "0")}` },
      amount: "1",
      asset: ETH,
    })),
  };
}
