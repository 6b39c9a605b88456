/**
 * Ties the Postgres connection a decision checks out to its guard (the decision deadline,
 * src/decision/deadline.ts): the pipeline opener in connect.ts passes the guard it was given to
 * `guardCheckout`. When the guard expires, the client is released with an error: the pool ends it
 * rather than handing it out again, and the decision's late work cannot be mistaken for another's.
 * In pg's pipeline mode the end waits for statements already sent to be answered; a late write
 * is rolled back by the server's own deadline check (src/decision/deadline.ts).
 *
 * The guard is passed, not found in an AsyncLocalStorage scope: on Node 20 any AsyncLocalStorage
 * turns on async_hooks' promise hook for every promise in the process, which cost the service
 * a measurable share of its CPU per decision (docs/performance.md). Only the decision's transaction needs
 * the guard; its other reads (the address-book copy) commit nothing.
 */

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

/** What connect.ts needs of a pooled pg client. */
export interface ReleasableClient {
  release(error?: Error | boolean): void;
}

/**
 * Called by the pipeline opener for each checkout. Without a guard: the client as is. With one: a
 * client whose release is idempotent, destroyed (released with an error) if the guard expires first.
 */
export function guardCheckout<C extends ReleasableClient>(client: C, guard: CheckoutGuard | undefined): C {
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
