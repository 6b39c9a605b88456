/**
 * How the property suites run: a fixed seed by default (COUNTERSIGN_PROPERTY_SEED overrides it), a
 * fixed number of generated bodies (COUNTERSIGN_PROPERTY_RUNS raises it), and a time limit that
 * covers shrinking too. A failure names the seed and the replay path so it can be reproduced.
 */
import fc from "fast-check";

const DEFAULT_SEED = 20261122;
const DEFAULT_RUNS = 10_000;

function intFromEnv(name: string, fallback: number): number {
  const raw = process.env[name];
  if (raw === undefined || raw.trim() === "") return fallback;
  const value = Number(raw);
  if (!Number.isSafeInteger(value)) throw new Error(`${name} must be an integer, got "${raw}"`);
  return value;
}

export const SEED = intFromEnv("COUNTERSIGN_PROPERTY_SEED", DEFAULT_SEED);
/** Never fewer than the default: the suite's promise is at least this many bodies per property. */
export const RUNS = Math.max(DEFAULT_RUNS, intFromEnv("COUNTERSIGN_PROPERTY_RUNS", DEFAULT_RUNS));
/** The liveness checks guard the oracle against refusing everything; fewer bodies suffice there. */
export const LIVENESS_RUNS = 2_000;
/** Per property, shrinking included; an interrupted run fails rather than passing on fewer bodies. */
export const TIME_LIMIT_MS = 50_000;
/** The vitest timeout of a property test: above the time limit, so fast-check's own report is what fails. */
export const PROPERTY_TEST_TIMEOUT_MS = 90_000;

/** The test's own name carries the count, so CI output shows how many bodies each property saw. */
export const counted = (what: string, runs = RUNS): string => `${what} (${runs} generated bodies, seed ${SEED})`;

export function check<T>(arbitrary: fc.Arbitrary<T>, predicate: (value: T) => void, runs = RUNS): void {
  const details = fc.check(fc.property(arbitrary, predicate), {
    seed: SEED,
    numRuns: runs,
    interruptAfterTimeLimit: TIME_LIMIT_MS,
    markInterruptAsFailure: true,
  });
  if (!details.failed) {
    if (details.numRuns < runs) throw new Error(`only ${details.numRuns} of ${runs} bodies were checked`);
    return;
  }
  const counterexample = details.counterexample?.[0];
  throw new Error(
    [
      `property failed after ${details.numRuns} bodies (${details.numShrinks} shrinks)`,
      `reproduce with COUNTERSIGN_PROPERTY_SEED=${details.seed} (path ${details.counterexamplePath ?? "-"})`,
      `counterexample: ${JSON.stringify(counterexample, null, 1)}`,
      `error: ${details.errorInstance instanceof Error ? details.errorInstance.message : String(details.errorInstance)}`,
    ].join("\n"),
  );
}

/** A fixed sample (for the HTTP suite), from the same seed. */
export const sample = <T>(arbitrary: fc.Arbitrary<T>, count: number): T[] => fc.sample(arbitrary, { seed: SEED, numRuns: count });
