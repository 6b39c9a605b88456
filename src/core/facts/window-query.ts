/**
 * Which window groups a decision reads: the assessment plans them and the velocity ledger answers
 * them (src/velocity/read.ts), each total keyed by windowTotalId.
 */

export interface WindowQuery {
  window: string;
  key: string;
  durationSeconds: number;
}

/** The map key of one window's total for one group (unambiguous whatever the names contain). */
export function windowTotalId(window: string, key: string): string {
  return JSON.stringify([window, key]);
}
