/**
 * Reviewer configuration (docs/interface.md sections 8 and 9): the OpenID Connect provider, the reviewer
 * tokens file and the notification webhook. Problems are reported with the rest of the
 * configuration's, one message per problem.
 */
import { readFileSync } from "node:fs";
import { hasCredentials, HTTPS_OR_LOOPBACK, httpsOrLoopback, NO_CREDENTIALS_IN_URL } from "../https-only.js";
import { normalIdentity } from "../core/review/types.js";

export interface OidcConfig {
  issuer: string;
  audience: string;
  identityClaim: string;
}

export interface ReviewerToken {
  identity: string;
  /** SHA-256 of the token, 32 bytes. */
  sha256: Buffer;
}

export interface ReviewConfig {
  oidc: OidcConfig | undefined;
  /** From COUNTERSIGN_REVIEWER_TOKENS_FILE; empty when unset. */
  tokens: ReviewerToken[];
  webhookUrl: string | undefined;
}

export interface ReviewEnv {
  COUNTERSIGN_OIDC_ISSUER?: string | undefined;
  COUNTERSIGN_OIDC_AUDIENCE?: string | undefined;
  COUNTERSIGN_OIDC_IDENTITY_CLAIM?: string | undefined;
  COUNTERSIGN_REVIEWER_TOKENS_FILE?: string | undefined;
  COUNTERSIGN_REVIEW_WEBHOOK_URL?: string | undefined;
}

const set = (v: string | undefined): string | undefined => (v === undefined || v.trim() === "" ? undefined : v.trim());

function httpUrl(variable: string, value: string, problems: string[]): string | undefined {
  try {
    const url = new URL(value);
    if (url.protocol === "https:" || url.protocol === "http:") return value;
  } catch {
    // reported below
  }
  problems.push(`${variable}: must be an http(s) URL`);
  return undefined;
}

/**
 * An http(s) URL over TLS, or to this machine (a provider or hook beside the service, a test's):
 * the OIDC issuer's keys decide who may release a transfer, and the review notice carries the
 * transfer's amount, addresses and initiator to a hook URL that is itself a credential.
 */
function tlsUrl(variable: string, value: string, problems: string[]): string | undefined {
  if (httpUrl(variable, value, problems) === undefined) return undefined;
  const url = new URL(value);
  if (!httpsOrLoopback(url)) problems.push(`${variable}: ${HTTPS_OR_LOOPBACK}`);
  else if (hasCredentials(url)) problems.push(`${variable}: ${NO_CREDENTIALS_IN_URL}`);
  else return value;
  return undefined;
}

export function reviewConfig(env: ReviewEnv, problems: string[]): ReviewConfig {
  const issuer = set(env.COUNTERSIGN_OIDC_ISSUER);
  const audience = set(env.COUNTERSIGN_OIDC_AUDIENCE);
  let oidc: OidcConfig | undefined;
  if (issuer !== undefined) {
    if (audience === undefined) problems.push("COUNTERSIGN_OIDC_AUDIENCE: required when COUNTERSIGN_OIDC_ISSUER is set");
    else if (tlsUrl("COUNTERSIGN_OIDC_ISSUER", issuer, problems) !== undefined) oidc = { issuer, audience, identityClaim: set(env.COUNTERSIGN_OIDC_IDENTITY_CLAIM) ?? "email" };
  } else if (audience !== undefined) {
    problems.push("COUNTERSIGN_OIDC_ISSUER: required when COUNTERSIGN_OIDC_AUDIENCE is set");
  }
  const tokensFile = set(env.COUNTERSIGN_REVIEWER_TOKENS_FILE);
  const tokens = tokensFile === undefined ? [] : readTokensFile(tokensFile, problems);
  const hook = set(env.COUNTERSIGN_REVIEW_WEBHOOK_URL);
  const webhookUrl = hook === undefined ? undefined : tlsUrl("COUNTERSIGN_REVIEW_WEBHOOK_URL", hook, problems);
  return { oidc, tokens, webhookUrl };
}

const LINE = /^(\S+)\s+([0-9a-fA-F]{64})$/;

/** `<identity> <sha256 hex of the token>` per line; blank lines and `#` comments are skipped. */
export function parseTokensFile(text: string, file: string, problems: string[]): ReviewerToken[] {
  const tokens: ReviewerToken[] = [];
  text.split(/\r?\n/).forEach((raw, i) => {
    const line = raw.trim();
    if (line === "" || line.startsWith("#")) return;
    const match = LINE.exec(line);
    if (!match) {
      problems.push(`COUNTERSIGN_REVIEWER_TOKENS_FILE: ${file} line ${i + 1} is not "<identity> <sha256 hex>"`);
      return;
    }
    tokens.push({ identity: normalIdentity(match[1]!), sha256: Buffer.from(match[2]!, "hex") });
  });
  return tokens;
}

function readTokensFile(file: string, problems: string[]): ReviewerToken[] {
  let text: string;
  try {
    text = readFileSync(file, "utf8");
  } catch {
    problems.push(`COUNTERSIGN_REVIEWER_TOKENS_FILE: cannot read ${file}`);
    return [];
  }
  return parseTokensFile(text, file, problems);
}
