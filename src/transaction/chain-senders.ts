/**
 * The account a chain object says the platform signs from: `evmTransaction.fromAddress`,
 * `tonTransaction.sender`, `suiTransaction.sender`, `aptosTransaction.sender`,
 * `substrateTransaction.fromAddress`. It pays, whatever the transfers name as their source, so a
 * sender that is not the transfers' raw source is a contradiction (400), and one beside a source
 * named by wallet is checked against the synced copy (src/decision/verify-claims.ts,
 * unknown-source.ts). Only the EVM one was read; the others were delivery metadata, so a Sui
 * transfer "from" the hot wallet's address could carry another account as its sender, and a
 * redelivery naming another sender was a repeat of the first allow (found by a review of hostile
 * bodies).
 *
 * Each chain's account is compared as the chain reads it: a Sui or Aptos account is 32 bytes that
 * its SDKs also take written short (`0x1` is `0x` and 63 zeros and `1`), so both sides are padded;
 * a Substrate sender may be the account's public key in hex, which is the SS58 account's 32 bytes.
 * A sender written any other way than its chain reads accounts is refused: it cannot be compared.
 */
import { err, ok, type AppError, type Result } from "../errors.js";
import { isEvmAddress, sameAddress } from "../facts/addresses.js";
import { substrateAccount, substrateAccountOfKey } from "../facts/ss58-address.js";
import { tonAccount } from "../facts/ton-address.js";
import { check, invalidAt } from "./issues.js";
import { optionalApiAddress } from "./schemas.js";
import { at, isRecord } from "./transfer.js";
import type { ChainSender, Transfer } from "./types.js";

interface SenderField {
  object: string;
  field: string;
  chain: string;
  /** The account as the facts compare it, or null when `address` is not one of the chain's spellings. */
  account: (address: string) => string | null;
}

/** `0x` and 1 to 64 hex digits: a Sui or Aptos account, padded to its 32 bytes. */
const SHORT_HEX_ACCOUNT = /^0x([0-9a-fA-F]{1,64})$/;
const hexAccount = (address: string): string | null => {
  const digits = SHORT_HEX_ACCOUNT.exec(address)?.[1];
  return digits === undefined ? null : `0x${digits.padStart(64, "0").toLowerCase()}`;
};

const SENDER_FIELDS: readonly SenderField[] = [
  // `0x` and 40 hex digits, compared without case as rules and the copy compare it. Any other
  // spelling (`0X…`, the digits alone, 32 bytes, an ENS name) was compared as written, so the copy
  // did not find another wallet's address in it and a source named by wallet was believed (found
  // by a review of this stop's changes).
  { object: "evmTransaction", field: "fromAddress", chain: "EVM", account: (address) => (isEvmAddress(address) ? address : null) },
  { object: "tonTransaction", field: "sender", chain: "TON", account: (address) => (tonAccount(address) === null ? null : address) },
  { object: "suiTransaction", field: "sender", chain: "Sui", account: hexAccount },
  { object: "aptosTransaction", field: "sender", chain: "Aptos", account: hexAccount },
  {
    object: "substrateTransaction",
    field: "fromAddress",
    chain: "Substrate",
    account: (address) => substrateAccountOfKey(address) ?? (substrateAccount(address) === null ? null : address),
  },
];

/** The one sender the body's chain objects name, checked against the transfers' raw sources; null when none names one. */
export function chainSender(tx: Record<string, unknown>, transfers: readonly Transfer[], path: string): Result<ChainSender | null, AppError> {
  const found: ChainSender[] = [];
  for (const spec of SENDER_FIELDS) {
    const holder = tx[spec.object];
    if (!isRecord(holder) || holder[spec.field] == null) continue;
    const fieldPath = at(at(path, spec.object), spec.field);
    const parsed = check(optionalApiAddress, holder[spec.field], fieldPath);
    if (!parsed.ok) return parsed;
    const written = parsed.value?.value ?? null;
    if (written === null) continue;
    const valuePath = at(fieldPath, "value");
    const address = spec.account(written);
    if (address === null) return err(invalidAt(valuePath, `must be an account on ${spec.chain}`));
    // A transfer's raw source read as the chain reads it; one in no spelling of the chain is another account.
    const other = transfers.find((t) => t.source.address !== null && !sameAddress(spec.account(t.source.address) ?? t.source.address, address));
    if (other !== undefined) return err(invalidAt(valuePath, "is not the transfers' source"));
    found.push({ field: `${spec.object}.${spec.field}`, chain: spec.chain, address });
  }
  // Two chain objects naming senders describe two transactions: which one is signed is unclear.
  const [first, second] = found;
  if (first !== undefined && second !== undefined) return err(invalidAt(at(path, second.field), `must not be given beside ${first.field}`));
  return ok(first ?? null);
}
