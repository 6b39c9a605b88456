/**
 * A circuit breaker for the platform check: after `threshold` checks in a row found the custody API
 * unavailable, it is not asked for `openMs`; deliveries in that time defer at once. Without it a
 * burst of deliveries against a dead API becomes a burst of timeouts, each holding its co-signer
 * request (and the API's recovery) for the whole deadline. After the pause one check is let
 * through: its success closes the circuit, its failure opens it for another pause.
 */
export interface CircuitOptions {
  /** Unavailable checks in a row that open the circuit. */
  threshold: number;
  /** How long an open circuit refuses before it lets one check through. */
  openMs: number;
  /** A monotonic clock in ms (performance.now by default). */
  now?: () => number;
}

export type CircuitState = "closed" | "open" | "half-open";

export interface Circuit {
  /** Whether a check may ask the API now; in half-open state only one at a time may. */
  allow(): boolean;
  succeeded(): void;
  failed(): void;
  state(): CircuitState;
}

export const DEFAULT_CIRCUIT: Readonly<Omit<CircuitOptions, "now">> = { threshold: 5, openMs: 5_000 };

export function createCircuit(options: CircuitOptions): Circuit {
  const now = options.now ?? (() => performance.now());
  let failures = 0;
  let openedAt: number | null = null;
  let trial = false;
  const state = (): CircuitState => (openedAt === null ? "closed" : now() - openedAt >= options.openMs ? "half-open" : "open");
  return {
    allow: () => {
      const s = state();
      if (s === "closed") return true;
      if (s === "open" || trial) return false;
      trial = true;
      return true;
    },
    succeeded: () => {
      failures = 0;
      openedAt = null;
      trial = false;
    },
    failed: () => {
      failures++;
      if (trial || failures >= options.threshold) openedAt = now();
      trial = false;
    },
    state,
  };
}
