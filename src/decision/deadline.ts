/**
 * COUNTERSIGN_DECISION_TIMEOUT: a decision not done by its deadline answers 503 at the deadline,
 * and its database work is abandoned so that it can never commit afterwards:
 * - the answer races a timer, so no wait (pool, lock, statement, a paused server) holds it longer;
 * - inside the decision's transaction, `statement_timeout` and `lock_timeout` are set from the
 *   remaining budget, so the server itself gives up on waits;
 * - COMMIT is only ever sent before the deadline, and it runs only if the server, by its own
 *   clock, finished the write within the budget the service had left when the transaction began
 *   (`countersign_decision_in_time`, pipelined between the write and the COMMIT: session.ts). A
 *   write held past the deadline after it was sent — by a lock, a paused server — fails that check,
 *   and the COMMIT behind it rolls back;
 * - at the deadline, the Postgres connection the decision's transaction holds is released with an
 *   error and never reused (checkout-guard.ts, given the deadline by session.ts). In pg's pipeline
 *   mode the client ends only once the statements already sent are answered, so it is the check
 *   above, not the closing, that rolls back a write the server ran late.
 * A COMMIT that passed the check when the deadline strikes may still complete: the server's budget
 * starts when `begin` reaches it, one network hop after the service's, or later by however long the
 * network delays that hop (an adversarial review committed a write 0.4 s past a 1 s deadline behind
 * a 0.7 s one-way delay). Its row then stands, recording the answer it would have given, and the
 * next delivery of the transaction repeats that answer (idempotency), so nothing is lost or doubled.
 * On PGlite (one in-process connection) there is no connection to destroy; the checks roll the late
 * transaction back.
 */
import type { CheckoutGuard } from "../db/checkout-guard.js";

export const DEFAULT_DECISION_TIMEOUT_MS = 5_000;

export class DeadlinePassed extends Error {
  constructor(readonly budgetMs: number) {
    super(`the decision did not finish within ${budgetMs} ms`);
    this.name = "DeadlinePassed";
  }
}

export class Deadline implements CheckoutGuard {
  private passed = false;
  private readonly onExpiry = new Set<() => void>();

  constructor(
    readonly expiresAt: number,
    readonly budgetMs: number,
  ) {}

  get expired(): boolean {
    return this.passed || performance.now() >= this.expiresAt;
  }

  remainingMs(): number {
    return Math.max(0, Math.floor(this.expiresAt - performance.now()));
  }

  /** Throws DeadlinePassed once the deadline is reached. */
  check(): void {
    if (this.expired) {
      this.expire();
      throw new DeadlinePassed(this.budgetMs);
    }
  }

  onExpire(destroy: () => void): () => void {
    if (this.passed) {
      destroy();
      return () => undefined;
    }
    this.onExpiry.add(destroy);
    return () => this.onExpiry.delete(destroy);
  }

  expire(): void {
    if (this.passed) return;
    this.passed = true;
    for (const destroy of [...this.onExpiry]) destroy();
    this.onExpiry.clear();
  }
}

export type WithinDeadline<T> = { done: true; value: T } | { done: false; budgetMs: number };

/**
 * Runs `work` with a deadline `budgetMs` after `startedAt` (a performance.now() time). Resolves
 * with its value, or `done: false` at the deadline or when `work` fails past it; rejects when
 * `work` fails before it.
 */
export async function withinDeadline<T>(budgetMs: number, startedAt: number, work: (deadline: Deadline) => Promise<T>): Promise<WithinDeadline<T>> {
  const deadline = new Deadline(startedAt + budgetMs, budgetMs);
  let timer: NodeJS.Timeout | undefined;
  const expired = new Promise<WithinDeadline<T>>((resolve) => {
    timer = setTimeout(() => {
      deadline.expire();
      resolve({ done: false, budgetMs });
    }, deadline.remainingMs());
  });
  // A failure once the deadline has passed is the deadline's doing (DeadlinePassed, a destroyed
  // connection), also when the work saw it before the timer ran: a busy event loop runs timers late.
  const running = work(deadline).then(
    (value): WithinDeadline<T> => ({ done: true, value }),
    (error: unknown): WithinDeadline<T> => {
      if (deadline.expired) return { done: false, budgetMs };
      throw error;
    },
  );
  running.catch(() => undefined);
  try {
    return await Promise.race([running, expired]);
  } finally {
    clearTimeout(timer);
  }
}
