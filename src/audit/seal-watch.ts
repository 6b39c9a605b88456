/**
 * Notices when sealing has stopped. A tick that finds the sealer's lock taken is normal for a
 * moment (another replica is sealing), and so is one failed tick; a run of them longer than the
 * grace that `audit verify` allows unsealed rows means rows are going unprotected (a session
 * holding the lock, a broken source, the database refusing), so the sealer says so, once, and
 * again once it recovers.
 */

/** How long a row may stay unsealed before verify fails and the sealer warns. */
export const SEAL_GRACE_SECONDS = 300;

export type MissReason = "locked" | "failed";

export type WatchNotice = { code: "stalled"; reason: MissReason; sinceMs: number } | { code: "recovered"; afterMs: number };

export class SealWatch {
  private lastSealed: number;
  private stalled = false;

  constructor(
    private readonly graceMs = SEAL_GRACE_SECONDS * 1000,
    private readonly now: () => number = Date.now,
  ) {
    this.lastSealed = now();
  }

  /** A tick that ran the sealer to the end (whether or not it found rows). */
  sealed(): WatchNotice | null {
    const at = this.now();
    const notice: WatchNotice | null = this.stalled ? { code: "recovered", afterMs: at - this.lastSealed } : null;
    this.stalled = false;
    this.lastSealed = at;
    return notice;
  }

  /** A tick that could not seal; a notice the first time the run of them outlasts the grace. */
  missed(reason: MissReason): WatchNotice | null {
    const sinceMs = this.now() - this.lastSealed;
    if (this.stalled || sinceMs <= this.graceMs) return null;
    this.stalled = true;
    return { code: "stalled", reason, sinceMs };
  }
}
