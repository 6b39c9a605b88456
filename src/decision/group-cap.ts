/**
 * COUNTERSIGN_MAX_WINDOW_GROUPS: a transaction whose transfers touch more velocity window groups
 * than the cap is denied before any group lock is taken. Every group costs an advisory lock held
 * until the decision commits, and a batch of thousands of transfers to distinct destinations would
 * hold thousands of them, stalling every other decision that shares one. A deferral would not help:
 * the same batch would be refused again at every poll, forever. A deny is final (the co-signer
 * cancels the transaction), which is the honest answer: this service will not sign that batch as
 * configured; split it, or raise the cap. The reason names the count and the cap.
 */
export const DEFAULT_MAX_WINDOW_GROUPS = 256;

export function windowGroupCapReason(groups: number, max: number): string | null {
  return groups > max ? `too many velocity window groups (${groups} > ${max})` : null;
}
