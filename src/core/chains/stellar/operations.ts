/**
 * What a Stellar transaction moves, from its operations, whichever shape described them (reference
 * `details.stellarTransaction.operations[].body`, API `stellarTransaction.operations[].decodedBody`).
 * A `payment` or `sep41Payment` is a transfer; any other operation (createAccount, changeTrust,
 * sep41TokenApproval, one the platform did not decode, ...) is the payload `stellar:<operation>`,
 * which makes the transaction `unknown`: signing it on the strength of its payments would sign what
 * the policy never saw.
 */
import { sameAddress } from "../accounts.js";
import { stellarAmount } from "./assets.js";
import { makeTransfer } from "../../transaction/transfer.js";
import type { Endpoint, Transfer } from "../../transaction/types.js";

export type StellarOperation =
  | { kind: "payment"; source: Endpoint; destination: Endpoint; asset: string; rawAmount: string }
  | { kind: "sep41Payment"; source: Endpoint; destination: Endpoint; contract: string; rawAmount: string }
  /** `created`: what a createAccount sends (its starting balance, in XLM stroops), when known. */
  | { kind: "other"; name: string; source: Endpoint; created?: { destination: Endpoint; rawAmount: string } };

export interface StellarMoves {
  transfers: Transfer[];
  payloads: string[];
}

/** `network` as the transaction names it (`networks/stellar-mainnet`); `sponsor` the transaction-level source. */
export function stellarMoves(operations: readonly StellarOperation[], network: string | null, sponsor: string | null): StellarMoves {
  const transfers: Transfer[] = [];
  const payloads: string[] = [];
  for (const op of operations) {
    if (op.kind === "other") {
      payloads.push(`stellar:${op.name}`);
      continue;
    }
    const common = { source: op.source, destination: op.destination, sponsor, fallbackNetwork: network, rawAmount: op.rawAmount, stellarOperation: true as const };
    transfers.push(
      op.kind === "payment"
        ? // As given, `native` included: the asset string is the policy's to read.
          makeTransfer(transfers.length, { ...common, asset: op.asset, assetStandard: "stellarClassic", amount: stellarAmount(op.rawAmount) })
        : // The token's decimals are not in the body: only the raw amount is known.
          makeTransfer(transfers.length, { ...common, asset: op.contract, assetStandard: "sep41", amount: null }),
    );
  }
  return { transfers, payloads };
}

/** The same account: by address when both name one, else by wallet name. */
export const sameEndpoint = (a: Endpoint, b: Endpoint): boolean =>
  a.address !== null && b.address !== null ? sameAddress(a.address, b.address) : a.wallet !== null && a.wallet === b.wallet;
