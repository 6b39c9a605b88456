/**
 * `POST /v1/evaluate` — a dry run for operators: the decision, matched rules and facts for a
 * posted transaction, with current address book and window totals, and nothing written.
 */
import { Router } from "express";
import { assess, planVelocity, situationOf, totalsByWindow } from "../../core/assess.js";
import { NO_ASSET_DECIMALS, type DecisionDeps, NO_ASSET_PRICES } from "../../decision/deps.js";
import { gatherPrices } from "../../decision/prices.js";
import { NO_PRICING, priceHold } from "../../core/facts/pricing.js";
import { readsDollars } from "../../core/policy/reads-dollars.js";
import { opaqueAssetHold } from "../../decision/opaque-asset.js";
import { unknownNetworkHold } from "../../decision/unknown-network.js";
import { unknownSourceHold } from "../../decision/unknown-source.js";
import { verifyClaims } from "../../decision/verify-claims.js";
import { parseTransaction } from "../../core/transaction/parse.js";
import { readWindowTotals } from "../../velocity/ledger.js";
import { requireAdminToken } from "../auth.js";
import { requestIdOf, sendAppError, sendError } from "../envelope.js";
import { describeError } from "../../log.js";
import { parseJsonBody, rawBody } from "../json-body.js";

export function evaluateRouter(deps: DecisionDeps, options: { adminToken: string | undefined; bodyLimitBytes: number }): Router {
  const router = Router();
  router.post("/v1/evaluate", requireAdminToken(options.adminToken), rawBody(options.bodyLimitBytes), async (req, res) => {
    const parsed = parseTransaction(parseJsonBody(req.body));
    if (!parsed.ok) return sendAppError(res, parsed.error);
    const bundle = deps.policy.current();
    const now = deps.clock();
    let situation, plan, read, claims, pricing;
    try {
      const view = await deps.addressBook.viewFor(parsed.value.vault);
      claims = await verifyClaims(parsed.value, view, deps.assetDecimals ?? NO_ASSET_DECIMALS);
      if (claims.kind === "refused") return sendAppError(res, claims.error);
      const unpriced = situationOf(parsed.value, now, view);
      pricing = readsDollars(bundle) ? await gatherPrices(deps.assetPrices ?? NO_ASSET_PRICES, parsed.value, unpriced.transfers) : NO_PRICING;
      situation = situationOf(parsed.value, now, view, pricing.book);
      plan = planVelocity(bundle, situation);
      read = plan.queries.length > 0 ? await readWindowTotals(deps.db, plan.queries, now) : new Map();
    } catch (error) {
      deps.logger.warn({ requestId: requestIdOf(res), ...describeError(error) }, "evaluation facts unavailable");
      return sendError(res, "UNAVAILABLE", "the facts for this evaluation cannot be read right now");
    }
    const outcome = assess(bundle, situation, totalsByWindow(plan.queries, read), { trace: true });
    // The same outside-the-policy answers as the webhook, in its order.
    const stale = deps.addressBook.staleReason(situation.addressBook, now) ?? (claims.kind === "unknown" ? claims.reason : null) ?? priceHold(bundle, pricing, situation.transfers);
    const held =
      stale !== null
        ? { decision: "defer" as const, reason: stale }
        : (unknownSourceHold(bundle.windows, situation.transfers, situation.addressBook, parsed.value) ??
          opaqueAssetHold(bundle.windows, situation.transfers) ??
          unknownNetworkHold(bundle.windows, situation.transfers));
    res.json({
      decision: held ? held.decision : outcome.decision,
      reasons: held ? [held.reason] : outcome.reasons,
      policyVersion: bundle.version,
      policyDigest: bundle.digest,
      matchedRules: outcome.matched,
      evaluations: outcome.evaluations,
      facts: outcome.facts,
      ...(held ? { policyOutcome: outcome.decision } : {}),
      prices: pricing.quotes,
    });
  });
  return router;
}
