/**
 * The process's share of Postgres's lock table, counted (src/db/lock-budget.ts gives its size):
 * every decision transaction reserves its advisory lock ids here before it checks out a
 * connection, and gives them back when it ends, however it ends. So the lock ids this process's
 * transactions hold at once, shared and alone together, never exceed the share its pool's
 * connections were given.
 *
 * A reservation that does not fit the room left waits its turn, first come first served: while
 * one waits, none after it is granted, even one that would fit, so a decision over many window
 * groups is not starved by a stream of small ones. A waiter whose guard expires (its decision's
 * deadline, which has answered 503 by then) leaves the queue, and those behind it move up.
 */
import type { CheckoutGuard } from "./checkout-guard.js";

/** Gives the reserved lock ids back; calling it again does nothing. */
export type ReleaseLockIds = () => void;

export class LockShareWaitExpired extends Error {
  constructor() {
    super("the deadline passed while the transaction waited for room in the process's lock share");
    this.name = "LockShareWaitExpired";
  }
}

interface Waiter {
  readonly lockIds: number;
  readonly grant: (release: ReleaseLockIds) => void;
}

export class LockShare {
  private inUse = 0;
  private readonly waiters: Waiter[] = [];

  /** `lockIds`: the process's share, in advisory lock ids held at once. */
  constructor(readonly lockIds: number) {}

  /** Lock ids a transaction formed now could have at once: none while others wait before it. */
  room(): number {
    return this.waiters.length > 0 ? 0 : this.lockIds - this.inUse;
  }

  /**
   * Resolves once `lockIds` are this caller's (at once when they fit and none waits before it),
   * with the function that gives them back. Rejects with LockShareWaitExpired when `guard`
   * expires first, and at once for more than the whole share, which could never be granted.
   */
  reserve(lockIds: number, guard: CheckoutGuard): Promise<ReleaseLockIds> {
    if (lockIds > this.lockIds) return Promise.reject(new Error(`a transaction of ${lockIds} lock ids cannot fit a share of ${this.lockIds}`));
    if (guard.expired) return Promise.reject(new LockShareWaitExpired());
    if (this.waiters.length === 0 && this.inUse + lockIds <= this.lockIds) return Promise.resolve(this.take(lockIds));
    return new Promise<ReleaseLockIds>((resolve, reject) => {
      let unregister = (): void => undefined;
      const waiter: Waiter = {
        lockIds,
        grant: (release) => {
          unregister();
          resolve(release);
        },
      };
      // Queued before the guard is watched: a guard that expires at once then finds it to remove.
      this.waiters.push(waiter);
      unregister = guard.onExpire(() => {
        const at = this.waiters.indexOf(waiter);
        if (at < 0) return;
        this.waiters.splice(at, 1);
        reject(new LockShareWaitExpired());
        this.grantWaiting();
      });
    });
  }

  private take(lockIds: number): ReleaseLockIds {
    this.inUse += lockIds;
    let released = false;
    return () => {
      if (released) return;
      released = true;
      this.inUse -= lockIds;
      this.grantWaiting();
    };
  }

  /** Grants waiters in order while the first fits. */
  private grantWaiting(): void {
    while (this.waiters.length > 0 && this.inUse + this.waiters[0]!.lockIds <= this.lockIds) {
      const next = this.waiters.shift()!;
      next.grant(this.take(next.lockIds));
    }
  }
}
