/**
 * Whether a bundle reads dollars: a `usd` window, or a rule reading a dollar fact (`transfer.usd`,
 * `transfer.usdPrice`, `tx.usd`, `tx.feeUsd`, a window's `usd` or `usdAfter`). Only then are prices
 * looked up for a decision: a bundle that never reads them must not wait for, or defer on, the
 * platform's prices. Read from the rules' text, so a path inside `some`/`all` counts too; reading
 * more than needed costs a lookup, never a wrong answer.
 */
import type { PolicyBundle } from "./types.js";

const DOLLAR_VAR = /"var":\s*(\[\s*)?"[^"]*\b(usd|usdPrice|usdAfter|feeUsd)"/;

const known = new WeakMap<PolicyBundle, boolean>();

export function readsDollars(bundle: PolicyBundle): boolean {
  let reads = known.get(bundle);
  if (reads === undefined) {
    reads = bundle.windows.some((w) => w.measure === "usd") || bundle.rules.some((r) => DOLLAR_VAR.test(JSON.stringify(r.when)));
    known.set(bundle, reads);
  }
  return reads;
}
