/**
 * Assembles the running service from configuration: database, policy, address-book source,
 * event handler, HTTP app. `main.ts` starts it; end-to-end tests start it on port 0.
 */
import { assetDecimalsFromConfig, assetPricesFromConfig } from "./assets/from-config.js";
import type { Server } from "node:http";
import type { AddressInfo } from "node:net";
import type { Config } from "./config.js";
import { openDatabase, type DatabaseHandle } from "./database.js";
import { establishLockBudget, neededMaxLocksPerTransaction } from "./db/lock-budget.js";
import { migrateAsOwner } from "./db/migrate.js";
import type { DecisionDeps } from "./decision/deps.js";
import { createApp } from "./http/app.js";
import type { DeliveryCheck } from "./deliveries/check.js";
import { deliveryCheckFromConfig } from "./deliveries/from-config.js";
import { createHttpServer } from "./http/server.js";
import type { Logger } from "./log.js";
import { ActivePolicy, type ApplyGuard, type ReloadListener } from "./policy/active-policy.js";
import { ShadowCandidate } from "./policy/shadow-candidate.js";
import { startPolicyAdoption, type PolicyAdoption } from "./policy/adoption.js";
import { createServiceMetrics } from "./telemetry/metrics.js";
import { startBackground, type Background } from "./background.js";
import { ReviewerAuth } from "./review/auth.js";
import { ReviewDesk } from "./review/desk.js";
import { ReviewNotifier } from "./review/notify.js";
import { schemaReadiness } from "./db/schema-readiness.js";
import { claimLapseSeconds, createWindowClaims, longestWindowSeconds, processHolder, type WindowClaims } from "./velocity/claims.js";
import { randomUUID } from "node:crypto";

export interface Service {
  url: string;
  server: Server;
  database: DatabaseHandle;
  policy: ActivePolicy;
  /** The candidate of COUNTERSIGN_SHADOW_POLICIES, when configured (evaluated only once admitted). */
  shadow: ShadowCandidate | undefined;
  background: Background;
  /** Which bundle this process decides by, against the newest in force elsewhere (src/policy/adoption.ts). */
  adoption: PolicyAdoption;
  /** Stops accepting, drains in-flight requests, stops background work, closes the database. */
  stop: () => Promise<void>;
}

export interface ServiceOptions {
  config: Readonly<Config>;
  logger: Logger;
  clock?: () => Date;
  /** The host's clock as the clock check reads it (src/db/clock-check.ts); tests skew it. Default Date.now. */
  hostNow?: () => number;
  /** Reuse an open database (tests); otherwise one is opened from the configuration. */
  database?: DatabaseHandle;
}

export async function startService(options: ServiceOptions): Promise<Service> {
  const { config, logger } = options;
  const clock = options.clock ?? (() => new Date());
  const metrics = createServiceMetrics();
  const retentionSeconds = config.ledgerRetentionSeconds;
  // Set once the database is open; a reload that applies a bundle adopts it (src/policy/adoption.ts).
  let adoption: PolicyAdoption | undefined;
  const onReload: ReloadListener = (result, reason) => {
    metrics.policyReload(result, reason);
    if (result === "applied") void adoption?.adopt(true);
  };
  const policy = await ActivePolicy.load(config.policiesDir, logger, { root: config.policiesRoot, retentionSeconds }, onReload);
  const onShadowReload: ReloadListener = (result, reason) => {
    if (result === "refused") metrics.shadowLoadFailed(reason ?? "invalid");
  };
  // Never answered, so never a reason not to start: a candidate that fails leaves the shadow off.
  const shadow = config.shadowPoliciesDir ? await ShadowCandidate.start(config.shadowPoliciesDir, logger, { retentionSeconds }, onShadowReload) : undefined;
  // loadConfig refuses an open webhook on any other address; on loopback it is allowed, loudly.
  if (config.webhookToken === undefined) {
    logger.warn({ host: config.host }, "COUNTERSIGN_WEBHOOK_TOKEN is not set: the co-signer webhook answers anyone who can reach this loopback address");
  }
  const database = options.database ?? (await openDatabase({ url: config.databaseUrl, dataDir: config.dataDir }));
  let background: Background | undefined;
  const stopPolicyGauges = [metrics.observePolicyInForce(() => policy.status()), ...(shadow ? [metrics.observeShadowLoaded(() => shadow.current() !== null)] : [])];
  const stopPolicyGauge = () => stopPolicyGauges.forEach((stop) => stop());
  try {
    // A handle the caller gave (tests) is the database to migrate; else the configured server's.
    if (config.migrate) await migrateAsOwner(database.db, config.migrateDatabaseUrl, options.database ? undefined : config.databaseUrl);
    await establishLockBudgetAtStart(database, config, logger);
    const windowsInForce = () => [policy.current(), shadow?.current()].map((bundle) => (bundle ? longestWindowSeconds(bundle) : 0));
    const claims = await claimWindowsInForce(database.db, logger, config, windowsInForce, [policy, shadow]);
    const longest = () => Math.max(0, ...windowsInForce());
    background = startBackground({
      config,
      db: database.db,
      logger,
      clock,
      metrics,
      longestWindowSeconds: longest,
      claims,
      ...(options.hostNow ? { hostNow: options.hostNow } : {}),
    });
    const running = background;
    // Compared once before listening, so that a process in step decides from its first request.
    await running.clock.check();
    // Counted by the others only once it can decide: a process starting on a new bundle, or whose
    // clock is out of step, would otherwise make them stand down while it decides nothing itself.
    let listening = false;
    const adopted = startPolicyAdoption({
      db: database.db,
      logger,
      holder: instanceHolder(),
      current: () => policy.current(),
      deciding: () => listening && running.clock.problem() === null,
    });
    adoption = adopted;
    await adopted.adopt(false);
    const deliveries = deliveryCheckFromConfig(config, { db: database.db, logger, clock, refused: (code) => metrics.deliveryRefused(code) });
    const notifier = config.review.webhookUrl ? new ReviewNotifier({ url: config.review.webhookUrl, logger }) : undefined;
    const decision: DecisionDeps = {
      db: database.db,
      policy,
      addressBook: background.addressBook,
      assetDecimals: assetDecimalsFromConfig(config),
      assetPrices: assetPricesFromConfig(config, logger),
      clock,
      standDown: () => (running.clock.problem() !== null ? "clock_skew" : adopted.problem() !== null ? "policy_superseded" : null),
      logger,
      decisionTimeoutMs: config.decisionTimeoutMs,
      maxWindowGroups: config.maxWindowGroups,
      ...(shadow ? { shadow } : {}),
      ...(notifier ? { reviews: notifier } : {}),
      ...(deliveries ? { deliveries } : {}),
    };
    const review = { desk: new ReviewDesk({ db: database.db, policy, clock }), auth: new ReviewerAuth(config.review, [config.webhookToken, config.adminToken]) };
    const http = createApp({
      decision,
      webhook: { webhookToken: config.webhookToken, metrics },
      status: {
        policyStatus: () => policy.status(),
        policyExtras: async (detailed) => ({
          ...(await running.policyExtras(detailed)),
          newerBundleElsewhere: adopted.newerElsewhere(),
          shadow: shadow?.status() ?? null,
          verifyDeliveries: deliveryStatus(config, deliveries),
        }),
        verifyDeliveries: config.verifyDeliveries,
        readiness: [schemaReadiness(database.db), ...background.readiness],
      },
      adminToken: config.adminToken,
      metricsToken: config.metricsToken,
      bodyLimitBytes: config.bodyLimitBytes,
      trustProxy: config.trustProxy,
      ...(background.eventsHandler ? { eventsHandler: background.eventsHandler } : {}),
      review,
    });
    const server = await listen(createHttpServer(http), config.host, config.port);
    listening = true;
    await adopted.check();
    // Polling, not fs.watch: swaps through symbolic links (ConfigMap, git-sync) are not reliably
    // reported by inotify on every volume type, and reading a small bundle is cheap.
    const poll = setInterval(() => void reloadPolicies(policy, shadow), config.policyReloadSeconds * 1000);
    poll.unref();
    const address = server.address() as AddressInfo;
    const url = `http://${address.address.includes(":") ? `[${address.address}]` : address.address}:${address.port}`;
    logger.info({ url, database: database.kind, policyVersion: policy.current().version, verifyDeliveries: config.verifyDeliveries }, "countersign serving");
    return {
      url,
      server,
      database,
      policy,
      shadow,
      background,
      adoption: adopted,
      stop: async () => {
        clearInterval(poll);
        await drain(server, config.decisionTimeoutMs, logger);
        await notifier?.stop();
        await running.stop();
        await adopted.stop();
        stopPolicyGauge();
        if (!options.database) await database.close();
        logger.info({}, "stopped: requests drained, database closed");
      },
    };
  } catch (error) {
    stopPolicyGauge();
    // Its row would stay live (for good, on a database the caller keeps open), and the replicas on
    // the bundle it replaces would stand down for a process that never decides.
    await adoption?.stop().catch(() => undefined);
    await background?.stop().catch(() => undefined);
    if (!options.database) await database.close().catch(() => undefined);
    throw error;
  }
}

/**
 * Reads the server's lock settings once (src/db/lock-budget.ts): the process's decision
 * transactions together keep to the budget derived from them and the pool size. A server whose
 * max_locks_per_transaction leaves a decision at COUNTERSIGN_MAX_WINDOW_GROUPS over that budget is
 * said so here, naming the value it needs: such decisions defer until it is raised.
 */
async function establishLockBudgetAtStart(database: DatabaseHandle, config: Readonly<Config>, logger: Logger): Promise<void> {
  const budget = await establishLockBudget(database.db, database.kind);
  const { settings, lockIds, lockTable, connections } = budget;
  logger.info({ lockBudget: lockIds, connections, lockTable, ...settings }, "database lock budget of this process");
  if (config.maxWindowGroups + 1 <= lockIds) return;
  const needed = neededMaxLocksPerTransaction(config.maxWindowGroups, budget, database.kind);
  logger.warn(
    {
      setting: "max_locks_per_transaction",
      value: settings.maxLocksPerTransaction,
      needed,
      maxWindowGroups: config.maxWindowGroups,
      connections,
      lockBudget: lockIds,
    },
    `max_locks_per_transaction is too low for COUNTERSIGN_MAX_WINDOW_GROUPS with a pool of ${connections} connections: a decision touching more than ${lockIds - 1} window groups defers; set it to at least ${needed} (a server restart), or lower the cap`,
  );
}

/**
 * Claims the windows of the bundles in force before the service listens, and makes every reload
 * claim its candidate's before it takes effect (src/velocity/claims.ts), a shadow candidate turned
 * on by a reload as any other. A claim that fails at boot
 * (with COUNTERSIGN_MIGRATE=false the migration adding the claims may not have run yet) does not
 * stop `serve`: `/readyz` stays not ready, and claims again, until a claim succeeds.
 */
async function claimWindowsInForce(
  db: DatabaseHandle["db"],
  logger: Logger,
  config: Readonly<Config>,
  windowsInForce: () => number[],
  policies: ({ guardApply(guard: ApplyGuard): void } | undefined)[],
): Promise<WindowClaims> {
  const claims = createWindowClaims({ db, logger, holder: processHolder(), lapseSeconds: claimLapseSeconds(config.policyReloadSeconds), windowsInForce });
  const claimed = await claims.claim();
  if (!claimed.ok) logger.warn({ code: claimed.error.code, error: claimed.error.message }, "velocity windows not claimed at boot; not ready until they are");
  for (const p of policies) {
    p?.guardApply(async (candidate) => {
      const result = await claims.claim([longestWindowSeconds(candidate)]);
      return result.ok ? null : result.error.message;
    });
  }
  return claims;
}

/** Which mode of the platform check is in force, and whether its circuit is letting checks through. */
function deliveryStatus(config: Readonly<Config>, deliveries: DeliveryCheck | undefined): Record<string, string> {
  return { mode: config.verifyDeliveries, ...(deliveries ? { circuit: deliveries.circuit() } : {}) };
}

/** SIGHUP and the file poll: the live bundle, and the shadow candidate beside it. */
export async function reloadPolicies(policy: ActivePolicy, shadow: ShadowCandidate | undefined): Promise<void> {
  await Promise.all([policy.reload(), shadow?.reload()]);
}

/** How often a draining server closes the keep-alive connections that have gone idle since. */
const DRAIN_IDLE_SWEEP_MS = 50;

/**
 * Stops accepting and waits for the requests in flight. A keep-alive connection whose request was
 * in flight when the drain began goes idle once answered, and `server.close` would wait for it
 * (and its client could go on sending requests over it) until the cut below: idle connections are
 * closed every 50 ms until the server has closed, and requests that still arrive are answered with
 * `Connection: close` (http/server.ts). A decision ends by its deadline, so after that (and a
 * second to write the answer) any connection still open is a slow client: it is cut.
 */
async function drain(server: Server, decisionTimeoutMs: number, logger: Logger): Promise<void> {
  const closed = new Promise<void>((resolve) => server.close(() => resolve()));
  server.closeIdleConnections();
  const sweep = setInterval(() => server.closeIdleConnections(), DRAIN_IDLE_SWEEP_MS);
  const cut = setTimeout(() => {
    logger.warn({}, "connections still open after the decision deadline; closing them");
    server.closeAllConnections();
  }, decisionTimeoutMs + 1_000);
  try {
    await closed;
  } finally {
    clearInterval(sweep);
    clearTimeout(cut);
  }
}

function listen(server: Server, host: string, port: number): Promise<Server> {
  return new Promise((resolve, reject) => {
    server.listen(port, host);
    server.once("listening", () => resolve(server));
    server.once("error", reject);
    // Co-signer requests are small; slow clients must not hold sockets for long.
    server.requestTimeout = 30_000;
    server.headersTimeout = 10_000;
    server.keepAliveTimeout = 5_000;
  });
}

/**
 * This service instance, as policy_holders names it: the process (host and pid) and an id of its
 * own, since tests start several services in one process, each on its own bundle.
 */
function instanceHolder(): string {
  return `${processHolder().slice(0, 180)}:${randomUUID().slice(0, 8)}`;
}
