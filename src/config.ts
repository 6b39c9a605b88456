/**
 * The environment, parsed once at boot with one zod schema and frozen (CONTRACT.md section 8).
 * Invalid configuration stops the process with one message per problem.
 */
import { readFileSync } from "node:fs";
import { z } from "zod";
import { parseDuration } from "./duration.js";

const optionalString = z
  .string()
  .optional()
  .transform((v) => (v === undefined || v.trim() === "" ? undefined : v));

const duration = (fallback: string) =>
  z
    .string()
    .optional()
    .transform((v, ctx) => {
      const seconds = parseDuration(v === undefined || v === "" ? fallback : v);
      if (seconds === null || seconds <= 0) {
        ctx.addIssue({ code: "custom", message: `must be a duration such as 60s, 15m, 1h (got "${v}")` });
        return z.NEVER;
      }
      return seconds;
    });

const boolean = (fallback: boolean) =>
  z
    .enum(["true", "false", "1", "0", ""])
    .optional()
    .transform((v) => (v === undefined || v === "" ? fallback : v === "true" || v === "1"));

const envSchema = z.object({
  DATABASE_URL: optionalString,
  COUNTERSIGN_DATA_DIR: z.string().default("./.countersign"),
  COUNTERSIGN_HOST: z.string().default("127.0.0.1"),
  COUNTERSIGN_PORT: z.coerce.number().int().min(0).max(65535).default(8080),
  COUNTERSIGN_POLICIES: z.string().default("./policies"),
  COUNTERSIGN_WEBHOOK_TOKEN: optionalString,
  COUNTERSIGN_ADMIN_TOKEN: optionalString,
  COUNTERSIGN_MIGRATE: boolean(true),
  COUNTERSIGN_BODY_LIMIT: z.coerce.number().int().min(1024).max(64 * 1024 * 1024).default(1024 * 1024),
  COUNTERSIGN_API_URL: optionalString.pipe(z.url({ protocol: /^https?$/ }).optional()),
  COUNTERSIGN_SERVICE_ACCOUNT_EMAIL: optionalString,
  COUNTERSIGN_SERVICE_ACCOUNT_KEY_FILE: optionalString,
  COUNTERSIGN_VAULTS: optionalString,
  COUNTERSIGN_ADDRESS_BOOK_REFRESH: duration("60s"),
  COUNTERSIGN_ADDRESS_BOOK_MAX_AGE: duration("15m"),
  COUNTERSIGN_EVENTS_PUBLIC_KEY_FILE: optionalString,
});

export interface CustodyApiConfig {
  baseUrl: string;
  serviceAccountEmail: string;
  privateKeyPem: string;
  /** Vault ids (without `vaults/`). */
  vaults: string[];
  refreshSeconds: number;
  maxAgeSeconds: number;
}

export interface Config {
  databaseUrl: string | undefined;
  dataDir: string;
  host: string;
  port: number;
  policiesDir: string;
  webhookToken: string | undefined;
  adminToken: string | undefined;
  migrate: boolean;
  bodyLimitBytes: number;
  custodyApi: CustodyApiConfig | undefined;
  eventsPublicKeyPem: string | undefined;
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
  return REQUIRED_WITH_API.filter((k) => !env[k]?.trim()).map((k) => `${k}: required when COUNTERSIGN_API_URL is set`);
}

export function loadConfig(env: NodeJS.ProcessEnv = process.env): Readonly<Config> {
  const parsed = envSchema.safeParse(env);
  const problems = missingCompanions(env);
  if (!parsed.success) {
    throw new ConfigError([...parsed.error.issues.map((i) => `${i.path.join(".")}: ${i.message}`), ...problems]);
  }
  const e = parsed.data;
  const custodyApi = custodyApiConfig(e, problems);
  const eventsPublicKeyPem = e.COUNTERSIGN_EVENTS_PUBLIC_KEY_FILE
    ? readKeyFile("COUNTERSIGN_EVENTS_PUBLIC_KEY_FILE", e.COUNTERSIGN_EVENTS_PUBLIC_KEY_FILE, problems)
    : undefined;
  if (problems.length > 0) throw new ConfigError(problems);
  return Object.freeze({
    databaseUrl: e.DATABASE_URL,
    dataDir: e.COUNTERSIGN_DATA_DIR,
    host: e.COUNTERSIGN_HOST,
    port: e.COUNTERSIGN_PORT,
    policiesDir: e.COUNTERSIGN_POLICIES,
    webhookToken: e.COUNTERSIGN_WEBHOOK_TOKEN,
    adminToken: e.COUNTERSIGN_ADMIN_TOKEN,
    migrate: e.COUNTERSIGN_MIGRATE,
    bodyLimitBytes: e.COUNTERSIGN_BODY_LIMIT,
    custodyApi,
    eventsPublicKeyPem,
  });
}

type Env = z.infer<typeof envSchema>;

function custodyApiConfig(e: Env, problems: string[]): CustodyApiConfig | undefined {
  if (!e.COUNTERSIGN_API_URL || REQUIRED_WITH_API.some((k) => !e[k])) return undefined;
  const vaults = e.COUNTERSIGN_VAULTS!.split(",").map((v) => v.trim().replace(/^vaults\//, "")).filter(Boolean);
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
