/**
 * The platform's copy of a delivered transaction: GetTransaction (`GET
 * /v2/vaults/{v}/transactions/{t}`, view FULL) with the service account, read into the same
 * Transaction model as a delivery. The copy must name the transaction asked about and be a
 * transaction countersign can read; anything else is the API failing, never a verdict on the
 * delivery. Only a 404 says the platform does not have it.
 */
import type { CustodyGet } from "../addressbook/custody-http.js";
import { CustodyApiError } from "../addressbook/errors.js";
import { parseTransaction } from "../core/transaction/parse.js";
import type { Transaction } from "../core/transaction/types.js";

export type PlatformAnswer = { kind: "held"; copy: Transaction } | { kind: "absent" } | { kind: "unavailable"; error: CustodyApiError };

/** Reads the platform's copy of `tx`, giving up by `until` (a performance.now() instant). */
export type ReadPlatformCopy = (tx: Transaction, until: number) => Promise<PlatformAnswer>;

const OPERATION = "GetTransaction";

export function createPlatformCopyReader(get: CustodyGet): ReadPlatformCopy {
  return async (tx, until) => {
    const vaultId = encodeURIComponent(tx.vault.slice("vaults/".length));
    const path = `/v2/vaults/${vaultId}/transactions/${encodeURIComponent(tx.id)}`;
    const answer = await get({ operation: OPERATION, vault: tx.vault, path, query: new URLSearchParams({ view: "FULL" }), until });
    if (!answer.ok) return answer.error.code === "NOT_FOUND" ? { kind: "absent" } : { kind: "unavailable", error: answer.error };
    const parsed = readCopy(answer.value);
    if (parsed === null || !parsed.ok) return unavailable(tx, "BAD_RESPONSE", "the answer is not a transaction countersign can read");
    if (parsed.value.name !== tx.name) return unavailable(tx, "INCONSISTENT", "the answer names another transaction");
    return { kind: "held", copy: parsed.value };
  };
}

/** The answer's `transaction`, parsed as a delivery is; null for anything the parser cannot take. */
function readCopy(body: unknown): ReturnType<typeof parseTransaction> | null {
  if (typeof body !== "object" || body === null) return null;
  try {
    return parseTransaction((body as { transaction?: unknown }).transaction);
  } catch {
    // An answer the parser fails on is no copy to decide on: the API answered badly, not the delivery.
    return null;
  }
}

function unavailable(tx: Transaction, code: "BAD_RESPONSE" | "INCONSISTENT", detail: string): PlatformAnswer {
  return { kind: "unavailable", error: new CustodyApiError(code, OPERATION, tx.vault, detail) };
}
