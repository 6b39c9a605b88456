/**
 * Whether a delivery is what the platform holds (docs/interface.md section 11): the same content
 * digest (src/core/transaction/content-digest.ts, the repeat check's: state, timestamps and other delivery
 * metadata left out) and the platform's copy awaiting a signature. Pure: the copy is an input.
 */
import { contentDigest } from "../core/transaction/content-digest.js";
import type { Transaction } from "../core/transaction/types.js";

export const AWAITING_SIGNATURE = "AWAITING_SIGNATURE";

export type RefusalCode = "DELIVERY_MISMATCH" | "NOT_AWAITING_SIGNATURE";

export interface Refusal {
  code: RefusalCode;
  deliveredDigest: string;
  /** Null when the platform does not have the transaction. */
  platformDigest: string | null;
  platformState: string | null;
  /** The platform's transaction object, or null when it has none. */
  platformCopy: Record<string, unknown> | null;
}

export type Comparison = { kind: "same"; copy: Transaction } | { kind: "refused"; refusal: Refusal };

/** `copy` null: the platform answered that it does not have the transaction. */
export function compareWithPlatform(deliveredDigest: string, copy: Transaction | null): Comparison {
  if (copy === null) return refused("DELIVERY_MISMATCH", deliveredDigest, null, null);
  const platformDigest = contentDigest(copy);
  // A differing content is the stronger finding, whatever state the copy is in.
  if (platformDigest !== deliveredDigest) return refused("DELIVERY_MISMATCH", deliveredDigest, platformDigest, copy);
  if (copy.state !== AWAITING_SIGNATURE) return refused("NOT_AWAITING_SIGNATURE", deliveredDigest, platformDigest, copy);
  return { kind: "same", copy };
}

function refused(code: RefusalCode, deliveredDigest: string, platformDigest: string | null, copy: Transaction | null): Comparison {
  return { kind: "refused", refusal: { code, deliveredDigest, platformDigest, platformState: copy?.state ?? null, platformCopy: copy?.snapshot ?? null } };
}
