/**
 * Test support: how the webhook's parser reads one raw account of a body (a transfer's destination,
 * an allowance's spender, an EVM sender), and how a rule reads the literal naming an account or an
 * asset. A spelling a deny rule must catch reads as the rule's literal; a spelling it could not
 * catch is refused (a 400, the transaction left pending).
 */
import { parseTransaction } from "../transaction/parse.js";
import type { Transaction } from "../transaction/types.js";
import { canonicalLiteral } from "./canonical.js";

const VAULT = "vaults/5c3f1a2b9d7e";
const WALLET = `${VAULT}/wallets/7a8b9c0d1e2f`;

/** The account as rules compare it, or the refusal's message (with the body's path). */
export type Reading = { account: string | null } | { refused: string };

function read(body: Record<string, unknown>, pick: (tx: Transaction) => string | null): Reading {
  const parsed = parseTransaction({ name: `${VAULT}/transactions/0f9e8d7c6b5a`, type: "TRANSACTION", request: { sourceWallet: WALLET }, ...body });
  return parsed.ok ? { account: pick(parsed.value) } : { refused: parsed.error.publicMessage };
}

/** A transfer of 1 `asset` to `destination`, on `network` (null: the body states none). */
export const destinationAsRead = (network: string | null, destination: string, asset = `assets/native.${network}`): Reading =>
  read(
    {
      subType: "NATIVE_TRANSFER",
      ...(network === null ? {} : { network: `networks/${network}` }),
      transfers: [{ destinationAddress: { value: destination }, amount: "1", asset }],
    },
    (tx) => tx.transfers[0]!.destination.address,
  );

/** An allowance of `asset` to `spender` on `network`, beside a transfer of it to `destination`. */
export const spenderAsRead = (network: string, asset: string, destination: string, spender: string): Reading =>
  read(
    {
      subType: "TOKEN_TRANSFER",
      network: `networks/${network}`,
      transfers: [{ destinationAddress: { value: destination }, amount: "1", asset }],
      tokenAllowances: [{ spenderAddress: { value: spender }, asset, amount: "1000" }],
    },
    (tx) => tx.tokenAllowances[0]!.spender,
  );

/** 1 ETH to `destination` whose signed EVM transaction pays from `sender`. */
export const evmSenderAsRead = (sender: string, destination = "0x1111111111111111111111111111111111111111"): Reading =>
  read(
    {
      subType: "NATIVE_TRANSFER",
      network: "networks/ethereum-mainnet",
      transfers: [{ destinationAddress: { value: destination }, amount: "1", asset: "assets/native.ethereum-mainnet" }],
      evmTransaction: { fromAddress: { value: sender }, toAddress: { value: destination }, value: "1000000000000000000" },
    },
    (tx) => tx.sender?.address ?? null,
  );

/** What a rule naming `literal` compares: plain equality with this is what the rule catches. */
export const asRuleNames = (literal: string): Reading => ({ account: canonicalLiteral(literal) });
