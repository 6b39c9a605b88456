/** `GET /healthz` (the process answers), `GET /readyz` (it can decide), `GET /v1/policy`. */
import { sql } from "kysely";
import { Router } from "express";
import type { Db } from "../../database.js";
import type { PolicyStatus } from "../../policy/active-policy.js";
import type { ReadinessCheck } from "../../readiness.js";
import { bearerToken, tokensEqual } from "../auth.js";

export interface StatusOptions {
  db: Db;
  policyStatus(): PolicyStatus;
  /**
   * Extra sections of `GET /v1/policy`, e.g. address-book sync status; `detailed` when the request
   * carries the admin token: what failed in the custody API's own words, its host and port.
   */
  policyExtras?(detailed: boolean): Promise<Record<string, unknown>>;
  readiness: ReadinessCheck[];
  adminToken?: string | undefined;
  /** COUNTERSIGN_VERIFY_DELIVERIES in force, said by /readyz. */
  verifyDeliveries?: string;
}

export function databaseReadiness(db: Db): ReadinessCheck {
  return {
    name: "database",
    check: async () => {
      try {
        await sql`select 1`.execute(db);
        return null;
      } catch {
        return "database is not reachable";
      }
    },
  };
}

export function statusRouter(options: StatusOptions): Router {
  const router = Router();
  router.get("/healthz", (_req, res) => {
    res.json({ status: "ok" });
  });
  router.get("/readyz", async (_req, res) => {
    const checks = [databaseReadiness(options.db), ...options.readiness];
    const results = await Promise.all(checks.map(async (c) => ({ name: c.name, problem: await c.check() })));
    const problems = results.filter((r) => r.problem !== null);
    res.status(problems.length === 0 ? 200 : 503).json({
      status: problems.length === 0 ? "ready" : "not ready",
      policy: { version: options.policyStatus().version },
      ...(options.verifyDeliveries ? { verifyDeliveries: options.verifyDeliveries } : {}),
      checks: Object.fromEntries(results.map((r) => [r.name, r.problem ?? "ok"])),
    });
  });
  router.get("/v1/policy", async (req, res) => {
    const token = bearerToken(req);
    const detailed = options.adminToken !== undefined && token !== undefined && tokensEqual(token, options.adminToken);
    res.json({ ...options.policyStatus(), ...(options.policyExtras ? await options.policyExtras(detailed) : {}) });
  });
  return router;
}
