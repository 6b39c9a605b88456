/**
 * The environment, parsed once at boot with one zod schema and frozen (docs/interface.md section 8).
 * Invalid configuration stops the process with one message per problem.
 */
import { readFileSync } from "node:fs";
import { z } from "zod";
import { DEFAULT_SYNC_LIMITS, type SyncLimits } from "./addressbook/sync-budget.js";
import { parseDecimalsPins, type DecimalsPins } from "./assets/decimals-pins.js";
import { parsePricePins, type PricePins } from "./assets/price-pins.js";
import { MAX_POLICY_DURATION_DAYS, parseDuration } from "./duration.js";
import { hasCredentials, HTTPS_OR_LOOPBACK, isHttpsOrLoopback, NO_CREDENTIALS_IN_URL } from "./https-only.js";
import type { DeliveryMode } from "./deliveries/check.js";
import { reviewConfig, type ReviewConfig } from "./review/config.js";
import { parseTrustProxy, type TrustProxy } from "./trust-proxy.js";

const MIB = 1024 * 1024;

const optionalString = z
  .string()
  .optional()
  .transform((v) => (v === undefined || v.trim() === "" ? undefined : v));

/**
 * A secret, or a path to key material: unset means off, but set-and-blank is refused. A blank
 * value is what an empty Kubernetes secret or `VAR=` in a unit file gives, and reading it as
 * "unset" would silently open the endpoint it was meant to protect.
 */
const secret = z
  .string()
  .optional()
  .superRefine((v, ctx) => {
    if (v === undefined) return;
    if (v.trim() === "") ctx.addIssue({ code: "custom", message: "is set but blank; unset it to turn it off, or give a value" });
    else if (/\s/.test(v)) ctx.addIssue({ code: "custom", message: "contains whitespace (a copy-paste mistake?); it could never match" });
  });

/** The shortest webhook or admin token accepted: a short one (`x`, `admin`) can be guessed. */
export const SHORTEST_TOKEN = 16;

/** A shared-secret token: a secret, and long enough not to be guessed. */
const token = secret.superRefine((v, ctx) => {
  if (v === undefined || v.trim() === "" || /\s/.test(v) || v.length >= SHORTEST_TOKEN) return;
  const length = `${v.length} character${v.length === 1 ? "" : "s"}`;
  ctx.addIssue({ code: "custom", message: `is ${length} long; give at least ${SHORTEST_TOKEN}, e.g. \`openssl rand -hex 32\`` });
});

/**
 * A database URL: unset means the embedded database, but set-and-blank is refused. An empty
 * Kubernetes secret gives a blank one, and reading it as unset gave each pod a throw-away embedded
 * database of its own — its own velocity windows, an audit trail lost at restart — that signed.
 */
const databaseUrl = z
  .string()
  .optional()
  .superRefine((v, ctx) => {
    if (v === undefined) return;
    if (v.trim() === "") ctx.addIssue({ code: "custom", message: "is set but blank; unset it to use the embedded database, or give a postgres:// URL" });
    else if (!isPostgresUrl(v))
      ctx.addIssue({ code: "custom", message: "must be a postgres:// URL (postgres://user:password@host:5432/database); key=value connection strings are not read" });
  });

/**
 * What pg reads as a connection URL. Anything else it takes for a path under a host named `base`:
 * a libpq `host=… password=…` string became the database name, password and all, sent in the
 * startup message to whatever `base` resolves to. The message never quotes the value.
 */
function isPostgresUrl(value: string): boolean {
  try {
    return ["postgres:", "postgresql:", "socket:"].includes(new URL(value).protocol);
  } catch {
    return false;
  }
}

/**
 * The longest period of a setting that arms a timer. Node keeps a timer's delay in 2^31−1 ms
 * (about 24.8 days); past that setTimeout and setInterval fire after 1 ms, so a refresh of `25d`
 * would call the custody API without pause and a reload interval of `30d` would busy-loop.
 */
export const LONGEST_TIMER = "24d";

/**
 * The longest decision deadline. The co-signer waiting on the webhook has long given up by then
 * (it asks again at its next poll), and a longer one only holds locks and connections; `25d`
 * overflowed the timer and answered every delivery 503 at once.
 */
export const LONGEST_DECISION_TIMEOUT = "60s";

/** Milliseconds from `250ms`, `5s`, `1m`, at most `longest`. */
const milliseconds = (fallback: string, longest: string) =>
  z
    .string()
    .optional()
    .transform((v, ctx) => {
      const text = (v === undefined || v === "" ? fallback : v).trim();
      const ms = /^([0-9]{1,9})ms$/.exec(text);
      const value = ms ? Number(ms[1]) : (parseDuration(text) ?? 0) * 1000;
      if (value <= 0) {
        ctx.addIssue({ code: "custom", message: `must be a duration such as 500ms, 5s, 1m (got "${v}")` });
        return z.NEVER;
      }
      if (value > parseDuration(longest)! * 1000) {
        ctx.addIssue({ code: "custom", message: `must be at most ${longest} (got "${v}")` });
        return z.NEVER;
      }
      return value;
    });

/**
 * How far this process's clock may stand from the database's before it stops deciding
 * (src/db/clock-check.ts): a window's charges drop out of it that much early.
 */
const DEFAULT_MAX_CLOCK_SKEW = "2s";

/** How long velocity charges are kept when COUNTERSIGN_LEDGER_RETENTION is not set. */
const DEFAULT_LEDGER_RETENTION = "400d";

/** Seconds from `60s`, `15m`, `1h`, `1d`; at most `longest` when given. */
const duration = (fallback: string, longest?: string) =>
  z
    .string()
    .optional()
    .transform((v, ctx) => {
      const seconds = parseDuration(v === undefined || v === "" ? fallback : v);
      if (seconds === null || seconds <= 0) {
        ctx.addIssue({ code: "custom", message: `must be a duration such as 60s, 15m, 1h (got "${v}")` });
        return z.NEVER;
      }
      if (longest !== undefined && seconds > parseDuration(longest)!) {
        ctx.addIssue({ code: "custom", message: `must be at most ${longest} (got "${v}")` });
        return z.NEVER;
      }
      return seconds;
    });

/**
 * The custody API's address: the service account's bearer JWT goes there, and the address book
 * that decides what gets signed comes back, so only over TLS (or to this machine).
 */
const custodyApiUrl = optionalString.superRefine((v, ctx) => {
  if (v === undefined) return;
  if (!isHttpsOrLoopback(v)) ctx.addIssue({ code: "custom", message: HTTPS_OR_LOOPBACK });
  else if (hasCredentials(new URL(v))) ctx.addIssue({ code: "custom", message: NO_CREDENTIALS_IN_URL });
});

const boolean = (fallback: boolean) =>
  z
    .enum(["true", "false", "1", "0", ""])
    .optional()
    .transform((v) => (v === undefined || v === "" ? fallback : v === "true" || v === "1"));

const envSchema = z.object({
  DATABASE_URL: databaseUrl,
  COUNTERSIGN_DATA_DIR: z.string().default("./.countersign"),
  COUNTERSIGN_HOST: z.string().default("127.0.0.1"),
  COUNTERSIGN_PORT: z.coerce.number().int().min(0).max(65535).default(8080),
  COUNTERSIGN_POLICIES: z.string().default("./policies"),
  COUNTERSIGN_SHADOW_POLICIES: optionalString,
  COUNTERSIGN_POLICIES_ROOT: optionalString,
  COUNTERSIGN_POLICY_RELOAD_INTERVAL: duration("5s", LONGEST_TIMER),
  COUNTERSIGN_WEBHOOK_TOKEN: token,
  COUNTERSIGN_ADMIN_TOKEN: token,
  COUNTERSIGN_METRICS_TOKEN: token,
  COUNTERSIGN_MIGRATE: boolean(true),
  COUNTERSIGN_MIGRATE_DATABASE_URL: databaseUrl,
  COUNTERSIGN_AUDIT_SEAL: boolean(true),
  // Not a timer: the hourly pruner computes a cut-off date from it, which past about 100 million
  // days is no date at all (every prune would fail). Ten years, as long as a window may be.
  COUNTERSIGN_LEDGER_RETENTION: duration(DEFAULT_LEDGER_RETENTION, `${MAX_POLICY_DURATION_DAYS}d`),
  COUNTERSIGN_BODY_LIMIT: z.coerce
    .number()
    .int()
    .min(1024)
    .max(64 * 1024 * 1024)
    .default(1024 * 1024),
  COUNTERSIGN_API_URL: custodyApiUrl,
  COUNTERSIGN_SERVICE_ACCOUNT_EMAIL: optionalString,
  COUNTERSIGN_SERVICE_ACCOUNT_KEY_FILE: secret,
  COUNTERSIGN_VAULTS: optionalString,
  COUNTERSIGN_ADDRESS_BOOK_REFRESH: duration("60s", LONGEST_TIMER),
  // Not a timer, but an address book trusted for longer than any refresh period allowed has
  // stopped being the custody API's: a removed destination would keep being signed to.
  COUNTERSIGN_ADDRESS_BOOK_MAX_AGE: duration("15m", LONGEST_TIMER),
  // How much one vault's sync may read (src/addressbook/sync-budget.ts): the copy is held in the
  // memory of the process that decides. Raised for a vault with more deposit addresses than these.
  COUNTERSIGN_ADDRESS_BOOK_MAX_ITEMS: z.coerce.number().int().min(1_000).max(100_000_000).default(DEFAULT_SYNC_LIMITS.maxItems),
  COUNTERSIGN_ADDRESS_BOOK_MAX_MIB: z.coerce
    .number()
    .int()
    .min(1)
    .max(16_384)
    .default(DEFAULT_SYNC_LIMITS.maxBytes / MIB),
  COUNTERSIGN_EVENTS_PUBLIC_KEY_FILE: secret,
  COUNTERSIGN_DECISION_TIMEOUT: milliseconds("5s", LONGEST_DECISION_TIMEOUT),
  // At least 100 ms: a reading is clear only when half its round trip fits in the tolerance, and a
  // tolerance below a round trip would leave the process never deciding.
  COUNTERSIGN_MAX_CLOCK_SKEW: milliseconds(DEFAULT_MAX_CLOCK_SKEW, "1h").refine((ms) => ms >= 100, { message: "must be at least 100ms" }),
  COUNTERSIGN_MAX_WINDOW_GROUPS: z.coerce.number().int().min(1).max(100_000).default(256),
  COUNTERSIGN_ASSET_DECIMALS: optionalString,
  COUNTERSIGN_ASSET_PRICES: optionalString,
  // A price older than this is not the platform's any more; a day is past any use of the word.
  COUNTERSIGN_PRICE_MAX_AGE: milliseconds("60s", "1d"),
  COUNTERSIGN_OIDC_ISSUER: optionalString,
  COUNTERSIGN_OIDC_AUDIENCE: optionalString,
  COUNTERSIGN_OIDC_IDENTITY_CLAIM: optionalString,
  COUNTERSIGN_REVIEWER_TOKENS_FILE: secret,
  COUNTERSIGN_REVIEW_WEBHOOK_URL: optionalString,
  COUNTERSIGN_TRUST_PROXY: optionalString,
  COUNTERSIGN_ALLOW_EMBEDDED_DATABASE: boolean(false),
  COUNTERSIGN_VERIFY_DELIVERIES: z.enum(["platform", "off"]).optional(),
});

export interface CustodyApiConfig {
  baseUrl: string;
  serviceAccountEmail: string;
  privateKeyPem: string;
  /** Vault ids (without `vaults/`). */
  vaults: string[];
  refreshSeconds: number;
  maxAgeSeconds: number;
  /** What one vault's sync may read before it fails with TOO_LARGE. */
  syncLimits: SyncLimits;
}

export interface Config {
  databaseUrl: string | undefined;
  dataDir: string;
  host: string;
  port: number;
  policiesDir: string;
  /** A candidate bundle evaluated beside the live one and recorded, never answered. */
  shadowPoliciesDir: string | undefined;
  /** Where the bundle's symbolic links may lead (default: the bundle directory's real path). */
  policiesRoot: string | undefined;
  policyReloadSeconds: number;
  webhookToken: string | undefined;
  adminToken: string | undefined;
  /** Required of `GET /metrics` as a bearer token when set; the scrape is open otherwise. */
  metricsToken: string | undefined;
  migrate: boolean;
  /** The owner role's connection for migrations, when the service itself runs as the writer role. */
  migrateDatabaseUrl: string | undefined;
  /** Link audit rows into the hash chain in the background (README "Audit trail integrity"). */
  auditSeal: boolean;
  /** How long velocity charges (and day buckets) are kept; never less than the fine buckets' horizon (src/velocity/prune.ts). */
  ledgerRetentionSeconds: number;
  bodyLimitBytes: number;
  /** Proxies whose X-Forwarded-Proto/-Host express believes (src/trust-proxy.ts); false: none. */
  trustProxy: TrustProxy;
  custodyApi: CustodyApiConfig | undefined;
  eventsPublicKeyPem: string | undefined;
  /** A decision not done by then defers (503) and its database transaction is rolled back. */
  decisionTimeoutMs: number;
  /** A transaction touching more velocity window groups than this is denied (src/decision/group-cap.ts). */
  maxWindowGroups: number;
  /** This process decides nothing while its clock and the database's differ by more (src/db/clock-check.ts). */
  maxClockSkewMs: number;
  /** Reviewers' credentials and the review notification webhook (src/review/config.ts). */
  review: ReviewConfig;
  /** COUNTERSIGN_ASSET_DECIMALS: the operator's token decimals (src/assets/decimals-pins.ts). */
  assetDecimalsPins: DecimalsPins;
  /** Whether each delivery is cross-checked with the platform's copy (src/deliveries/). */
  verifyDeliveries: DeliveryMode;
  /** COUNTERSIGN_ASSET_PRICES: the operator's USD prices for assets the platform does not price (src/assets/price-pins.ts). */
  assetPricePins: PricePins;
  /** COUNTERSIGN_PRICE_MAX_AGE in ms: how long a platform price is used (src/assets/prices.ts). */
  priceMaxAgeMs: number;
}

export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(`invalid configuration:\n${problems.map((p) => `  - ${p}`).join("\n")}`);
    this.name = "ConfigError";
  }
}

const REQUIRED_WITH_API = ["COUNTERSIGN_SERVICE_ACCOUNT_EMAIL", "COUNTERSIGN_SERVICE_ACCOUNT_KEY_FILE", "COUNTERSIGN_VAULTS"] as const;

/** Variables that only make sense together, checked on the raw environment so they are reported with the rest. */
function missingCompanions(env: NodeJS.ProcessEnv): string[] {
  if (!env.COUNTERSIGN_API_URL?.trim()) return [];
  // A blank key file is reported once, as a blank secret.
  const missing = (k: (typeof REQUIRED_WITH_API)[number]) => env[k] === undefined || (k !== "COUNTERSIGN_SERVICE_ACCOUNT_KEY_FILE" && !env[k]?.trim());
  return REQUIRED_WITH_API.filter(missing).map((k) => `${k}: required when COUNTERSIGN_API_URL is set`);
}

/**
 * COUNTERSIGN_LEDGER_RETENTION alone, parsed as `serve` parses it: for `policy check`, which runs
 * where the rest of the service's configuration need not be set.
 */
export function ledgerRetention(env: NodeJS.ProcessEnv = process.env): { seconds: number } | { problem: string } {
  const parsed = envSchema.shape.COUNTERSIGN_LEDGER_RETENTION.safeParse(env.COUNTERSIGN_LEDGER_RETENTION);
  return parsed.success ? { seconds: parsed.data } : { problem: `COUNTERSIGN_LEDGER_RETENTION: ${parsed.error.issues[0]?.message ?? "invalid"}` };
}

export function loadConfig(env: NodeJS.ProcessEnv = process.env): Readonly<Config> {
  const problems = [...missingCompanions(env), ...verifyWithoutApi(env), ...openWebhook(env), ...sharedAdminToken(env), ...sharedMetricsToken(env), ...embeddedInProduction(env)];
  const parsed = envSchema.safeParse(env);
  if (!parsed.success) {
    // Every problem at start, not one batch per attempt: the variables that did parse are checked
    // further (key files, reviewer tokens, decimals pins, proxies) as if the failed ones were unset.
    const failed = new Set(parsed.error.issues.map((i) => String(i.path[0])));
    const rest = envSchema.safeParse(Object.fromEntries(Object.entries(env).filter(([name]) => !failed.has(name))));
    if (rest.success) derivedSettings(rest.data, problems);
    throw new ConfigError([...parsed.error.issues.map((i) => `${i.path.join(".")}: ${i.message}`), ...problems]);
  }
  const e = parsed.data;
  const { custodyApi, eventsPublicKeyPem, review, pins, pricePins, trustProxy } = derivedSettings(e, problems);
  if (problems.length > 0) throw new ConfigError(problems);
  return Object.freeze({
    databaseUrl: e.DATABASE_URL,
    dataDir: e.COUNTERSIGN_DATA_DIR,
    host: e.COUNTERSIGN_HOST,
    port: e.COUNTERSIGN_PORT,
    policiesDir: e.COUNTERSIGN_POLICIES,
    shadowPoliciesDir: e.COUNTERSIGN_SHADOW_POLICIES,
    policiesRoot: e.COUNTERSIGN_POLICIES_ROOT,
    policyReloadSeconds: e.COUNTERSIGN_POLICY_RELOAD_INTERVAL,
    webhookToken: e.COUNTERSIGN_WEBHOOK_TOKEN,
    adminToken: e.COUNTERSIGN_ADMIN_TOKEN,
    metricsToken: e.COUNTERSIGN_METRICS_TOKEN,
    migrate: e.COUNTERSIGN_MIGRATE,
    migrateDatabaseUrl: e.COUNTERSIGN_MIGRATE_DATABASE_URL,
    auditSeal: e.COUNTERSIGN_AUDIT_SEAL,
    ledgerRetentionSeconds: e.COUNTERSIGN_LEDGER_RETENTION,
    bodyLimitBytes: e.COUNTERSIGN_BODY_LIMIT,
    trustProxy: "value" in trustProxy ? trustProxy.value : false,
    custodyApi,
    eventsPublicKeyPem,
    decisionTimeoutMs: e.COUNTERSIGN_DECISION_TIMEOUT,
    maxWindowGroups: e.COUNTERSIGN_MAX_WINDOW_GROUPS,
    maxClockSkewMs: e.COUNTERSIGN_MAX_CLOCK_SKEW,
    review,
    assetDecimalsPins: pins.pins,
    verifyDeliveries: e.COUNTERSIGN_VERIFY_DELIVERIES ?? (custodyApi === undefined ? "off" : "platform"),
    assetPricePins: pricePins.pins,
    priceMaxAgeMs: e.COUNTERSIGN_PRICE_MAX_AGE,
  });
}

/** The settings read from files or parsed beyond the schema; each problem is added to `problems`. */
function derivedSettings(e: Env, problems: string[]) {
  const custodyApi = custodyApiConfig(e, problems);
  const eventsPublicKeyPem = e.COUNTERSIGN_EVENTS_PUBLIC_KEY_FILE ? readKeyFile("COUNTERSIGN_EVENTS_PUBLIC_KEY_FILE", e.COUNTERSIGN_EVENTS_PUBLIC_KEY_FILE, problems) : undefined;
  const review = reviewConfig(e, problems);
  const pins = parseDecimalsPins(e.COUNTERSIGN_ASSET_DECIMALS);
  problems.push(...pins.problems);
  const pricePins = parsePricePins(e.COUNTERSIGN_ASSET_PRICES);
  problems.push(...pricePins.problems);
  const trustProxy = parseTrustProxy(e.COUNTERSIGN_TRUST_PROXY);
  if ("problem" in trustProxy) problems.push(`COUNTERSIGN_TRUST_PROXY: ${trustProxy.problem}`);
  return { custodyApi, eventsPublicKeyPem, review, pins, pricePins, trustProxy };
}

/** The platform check asks the custody API: asked for by name without one, it could never run. */
function verifyWithoutApi(env: NodeJS.ProcessEnv): string[] {
  if (env.COUNTERSIGN_VERIFY_DELIVERIES !== "platform" || env.COUNTERSIGN_API_URL?.trim()) return [];
  return ["COUNTERSIGN_VERIFY_DELIVERIES: platform needs COUNTERSIGN_API_URL and its service account (the check reads each transaction with GetTransaction); set them, or set off"];
}

/** Whether `host` only accepts connections from this machine. */
export function isLoopbackHost(host: string): boolean {
  const h = host
    .trim()
    .toLowerCase()
    .replace(/^\[(.*)\]$/, "$1");
  return h === "localhost" || h === "::1" || /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(h) || /^::ffff:127\./.test(h);
}

/** The webhook decides over money: without a token it may only listen where no one else can reach it. */
function openWebhook(env: NodeJS.ProcessEnv): string[] {
  if (env.COUNTERSIGN_WEBHOOK_TOKEN !== undefined) return [];
  const host = env.COUNTERSIGN_HOST ?? "127.0.0.1";
  if (isLoopbackHost(host)) return [];
  return [`COUNTERSIGN_WEBHOOK_TOKEN: required when COUNTERSIGN_HOST is not a loopback address (${host}); without it anyone who reaches the port gets transactions signed`];
}

/**
 * The embedded database is one process's, in a data directory a container loses when it is
 * replaced: a production install (NODE_ENV=production, as the image sets) that forgot DATABASE_URL
 * would decide on empty velocity windows and keep its audit trail nowhere durable. There it is
 * used only when asked for by name; a checkout's `npm start` is not production and keeps it.
 */
function embeddedInProduction(env: NodeJS.ProcessEnv): string[] {
  if (env.NODE_ENV !== "production" || env.DATABASE_URL !== undefined) return [];
  if (["true", "1"].includes(env.COUNTERSIGN_ALLOW_EMBEDDED_DATABASE ?? "")) return [];
  return [
    "DATABASE_URL: required when NODE_ENV=production (the image sets it): give a postgres:// URL, or set COUNTERSIGN_ALLOW_EMBEDDED_DATABASE=true to keep the embedded database in COUNTERSIGN_DATA_DIR, one process's and lost with its volume",
  ];
}

/**
 * The webhook token sits in the co-signer's configuration (its webhook URL): as the admin token
 * too, whoever reads that configuration, or the co-signer itself, could call the admin endpoints.
 */
function sharedAdminToken(env: NodeJS.ProcessEnv): string[] {
  const admin = env.COUNTERSIGN_ADMIN_TOKEN;
  if (admin === undefined || admin.trim() === "" || admin !== env.COUNTERSIGN_WEBHOOK_TOKEN) return [];
  return [
    "COUNTERSIGN_ADMIN_TOKEN: must differ from COUNTERSIGN_WEBHOOK_TOKEN; the co-signer holds the webhook token, give the admin endpoints their own (`openssl rand -hex 32`)",
  ];
}

/** Prometheus holds the metrics token: as the webhook's or the admin's, a scraper could call those endpoints. */
function sharedMetricsToken(env: NodeJS.ProcessEnv): string[] {
  const metrics = env.COUNTERSIGN_METRICS_TOKEN;
  if (metrics === undefined || metrics.trim() === "") return [];
  if (metrics !== env.COUNTERSIGN_WEBHOOK_TOKEN && metrics !== env.COUNTERSIGN_ADMIN_TOKEN) return [];
  return ["COUNTERSIGN_METRICS_TOKEN: must differ from COUNTERSIGN_WEBHOOK_TOKEN and COUNTERSIGN_ADMIN_TOKEN; give the scraper its own (`openssl rand -hex 32`)"];
}

type Env = z.infer<typeof envSchema>;

function custodyApiConfig(e: Env, problems: string[]): CustodyApiConfig | undefined {
  if (!e.COUNTERSIGN_API_URL || REQUIRED_WITH_API.some((k) => !e[k]?.trim())) return undefined;
  const vaults = e
    .COUNTERSIGN_VAULTS!.split(",")
    .map((v) => v.trim().replace(/^vaults\//, ""))
    .filter(Boolean);
  const badVault = vaults.find((v) => !/^[A-Za-z0-9_-]+$/.test(v));
  if (badVault !== undefined) problems.push(`COUNTERSIGN_VAULTS: "${badVault}" is not a vault id`);
  const privateKeyPem = readKeyFile("COUNTERSIGN_SERVICE_ACCOUNT_KEY_FILE", e.COUNTERSIGN_SERVICE_ACCOUNT_KEY_FILE!, problems);
  if (privateKeyPem === undefined) return undefined;
  return {
    baseUrl: e.COUNTERSIGN_API_URL.replace(/\/+$/, ""),
    serviceAccountEmail: e.COUNTERSIGN_SERVICE_ACCOUNT_EMAIL!,
    privateKeyPem,
    vaults,
    refreshSeconds: e.COUNTERSIGN_ADDRESS_BOOK_REFRESH,
    maxAgeSeconds: e.COUNTERSIGN_ADDRESS_BOOK_MAX_AGE,
    syncLimits: { maxItems: e.COUNTERSIGN_ADDRESS_BOOK_MAX_ITEMS, maxBytes: e.COUNTERSIGN_ADDRESS_BOOK_MAX_MIB * MIB },
  };
}

function readKeyFile(variable: string, path: string, problems: string[]): string | undefined {
  try {
    const pem = readFileSync(path, "utf8");
    if (!pem.includes("-----BEGIN")) {
      problems.push(`${variable}: ${path} is not a PEM file`);
      return undefined;
    }
    return pem;
  } catch {
    problems.push(`${variable}: cannot read ${path}`);
    return undefined;
  }
}
