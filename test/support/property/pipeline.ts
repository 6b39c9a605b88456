/**
 * The webhook's decision, in process: parse → facts → evaluate through the functions the webhook
 * itself calls (src/core/transaction/parse.ts, src/core/assess.ts), with no velocity spent before,
 * at the example's prices when the bundle runs the example's windows, and held (defer) where a
 * dollar window cannot price a transfer, as the service holds it (src/core/facts/pricing.ts).
 * A throw propagates: in the service it would be a crash of the decision.
 */
import type { AddressBookView } from "../../../src/core/addressbook/types.js";
import { assess, planVelocity, situationOf, totalsByWindow } from "../../../src/core/assess.js";
import { offlineOutcome } from "../../../src/core/facts/pricing.js";
import type { Outcome, PolicyBundle } from "../../../src/core/policy/types.js";
import { parseTransaction } from "../../../src/core/transaction/parse.js";
import type { Transaction } from "../../../src/core/transaction/types.js";
import { examplePricesFor } from "../example-bundle.js";
import { NOW } from "./world.js";

export type Parsed = { refused: string } | { tx: Transaction };
export type InProcess = { refused: string } | { tx: Transaction; outcome: Outcome };

export function parse(body: unknown): Parsed {
  const parsed = parseTransaction(body);
  return parsed.ok ? { tx: parsed.value } : { refused: parsed.error.code };
}

export function evaluateParsed(bundle: PolicyBundle, parsed: Parsed, view: AddressBookView): InProcess {
  if (!("tx" in parsed)) return parsed;
  const prices = examplePricesFor(bundle);
  const situation = situationOf(parsed.tx, NOW, view, prices);
  const plan = planVelocity(bundle, situation);
  const evaluated = assess(bundle, situation, totalsByWindow(plan.queries, new Map()));
  return { tx: parsed.tx, outcome: offlineOutcome(bundle, prices, situation.transfers, evaluated) };
}

export const decideInProcess = (bundle: PolicyBundle, body: unknown, view: AddressBookView): InProcess => evaluateParsed(bundle, parse(body), view);

export const signed = (result: InProcess): boolean => "outcome" in result && result.outcome.decision === "allow";
