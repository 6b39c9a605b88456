/**
 * Ties the Postgres connections a piece of work checks out to a guard (the decision deadline,
 * src/decision/deadline.ts) without threading it through every repository function: the pool
 * wrapper in connect.ts asks `guardCheckout` about each client it hands out, within the work's
 * async context. When the guard expires, every client the work still holds is destroyed rather
 * than returned to the pool: a server that was paused then finds its session gone and rolls the
 * transaction back; it can never commit it later.
 */
import { AsyncLocalStorage } from "node:async_hooks";

export interface CheckoutGuard {
  readonly expired: boolean;
  /** Runs `destroy` at expiry (at once if already expired); the returned function unregisters it. */
  onExpire(destroy: () => void): () => void;
}

export class CheckoutRefused extends Error {
  constructor() {
    super("connection checked out after the decision deadline");
    this.name = "CheckoutRefused";
  }
}

const scope = new AsyncLocalStorage<CheckoutGuard>();

export function runGuarded<T>(guard: CheckoutGuard, work: () => Promise<T>): Promise<T> {
  return scope.run(guard, work);
}

/** What connect.ts needs of a pooled pg client. */
export interface ReleasableClient {
  release(error?: Error | boolean): void;
}

/**
 * Called by the pool wrapper for each checkout. Outside guarded work: the client as is. Inside: a
 * client whose release is idempotent, destroyed (released with an error) if the guard expires first.
 */
export function guardCheckout<C extends ReleasableClient>(client: C): C {
  const guard = scope.getStore();
  if (guard === undefined) return client;
  if (guard.expired) {
    // The wait for a free connection outlived the deadline: hand it back unused.
    client.release();
    throw new CheckoutRefused();
  }
  const original = client.release.bind(client);
  let released = false;
  const releaseOnce = (error?: Error | boolean) => {
    if (released) return;
    released = true;
    unregister();
    original(error);
  };
  const unregister = guard.onExpire(() => releaseOnce(new Error("decision deadline passed: connection destroyed")));
  client.release = releaseOnce;
  return client;
}
