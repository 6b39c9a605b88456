/**
 * `countersign explain [FILE|-]`: evaluates one webhook body against the bundle, offline (address
 * book not configured, empty windows unless given), and prints the trace a reviewer needs. What the
 * running service checks before deciding and explain cannot (token amounts at the token's decimals)
 * is named, so an offline "allow" is not read as the service's answer.
 */
import { readFile } from "node:fs/promises";
import { notConfiguredView } from "../core/addressbook/types.js";
import { assess, situationOf } from "../core/assess.js";
import { offlineOutcome } from "../core/facts/pricing.js";
import { NO_PRICES, type PriceBook } from "../core/facts/dollars.js";
import { loadBundle } from "../policy/load.js";
import { parseTransaction } from "../core/transaction/parse.js";
import { unitClaims, type UnitClaim } from "../core/transaction/unit-claims.js";
import { printTrace } from "./explain-trace.js";

export interface ExplainOptions {
  file: string;
  policies: string;
  now: Date;
  json: boolean;
  readStdin: () => Promise<string>;
  /** USD prices to decide with (--prices); offline there are no others. */
  prices?: PriceBook;
}

export async function explain(options: ExplainOptions, out: (line: string) => void): Promise<number> {
  const loaded = await loadBundle(options.policies);
  if (!loaded.ok) {
    out(loaded.error.message);
    return 1;
  }
  let body: unknown;
  try {
    const text = options.file === "-" ? await options.readStdin() : await readFile(options.file, "utf8");
    body = JSON.parse(text);
  } catch {
    out(`cannot read ${options.file === "-" ? "standard input" : options.file} as JSON`);
    return 1;
  }
  const parsed = parseTransaction(body);
  if (!parsed.ok) {
    out(`${parsed.error.code}: ${parsed.error.publicMessage}`);
    return 1;
  }
  const prices = options.prices ?? NO_PRICES;
  const situation = situationOf(parsed.value, options.now, notConfiguredView(parsed.value.vault), prices);
  const outcome = offlineOutcome(loaded.value, prices, situation.transfers, assess(loaded.value, situation, new Map(), { trace: true }));
  const unchecked = unitClaims(parsed.value).map(uncheckedNote);
  if (options.json) out(JSON.stringify({ policyVersion: loaded.value.version, ...outcome, ...(unchecked.length > 0 ? { uncheckedOffline: unchecked } : {}) }, null, 2));
  else {
    printTrace({ ...outcome, policyVersion: loaded.value.version }, out);
    for (const note of unchecked) out(`not checked offline: ${note}`);
  }
  return 0;
}

function uncheckedNote(claim: UnitClaim): string {
  const raw = claim.statedBy === "rawAmount" ? "its rawAmount" : claim.statedBy === "evmValue" ? "its evmTransaction value" : "its evmTransaction calldata";
  return `transfer ${claim.transferIndex}: amount ${claim.amount} against ${raw} (${claim.rawAmount}) at the decimals of ${claim.asset}; the service checks them before deciding (custody API or COUNTERSIGN_ASSET_DECIMALS): a disagreement is refused with 400, unknown decimals defer`;
}
