/**
 * The account a chain object says the platform signs from (`evmTransaction.fromAddress`,
 * `tonTransaction.sender`, `suiTransaction.sender`, `aptosTransaction.sender`,
 * `substrateTransaction.fromAddress`: each family's `senders`). It pays, whatever the transfers name
 * as their source, so a sender that is not the transfers' raw source is a contradiction (400), and
 * one beside a source named by wallet is checked against the synced copy
 * (src/decision/verify-claims.ts, unknown-source.ts). Each chain's account is compared as the chain
 * reads it; a sender written any other way than its chain reads accounts is refused: it cannot be
 * compared.
 */
import { err, ok, type AppError, type Result } from "../errors.js";
import { check, invalidAt } from "../transaction/issues.js";
import { optionalApiAddress } from "../transaction/schemas.js";
import { at, isRecord } from "../transaction/transfer.js";
import type { ChainSender, Transfer } from "../transaction/types.js";
import { sameAddress } from "./accounts.js";
import { SENDER_FIELDS } from "./registry.js";

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
