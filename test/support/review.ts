/** A running service with reviewers (token file and a local OIDC issuer) for the review suites. */
import { CosignerSimulator } from "./cosigner.js";
import { startTestIssuer, type TestIssuer } from "./oidc.js";
import { createTestDatabase, type TestDatabase } from "./postgres.js";
import { writeReviewerTokens, type ReviewerTokens } from "./reviewers.js";
import { startTestService } from "./service.js";

export const AUDIENCE = "countersign-review";
export const WEBHOOK_TOKEN = "webhook-secret-token";
export const ADMIN_TOKEN = "admin-secret-token";
/** Members of the example policy's treasury-approvers, and one outsider. */
export const ALICE = "alice@treasury.example";
export const BOB = "bob@treasury.example"; // users/2d2e40r3 on the platform
export const CAROL = "carol@treasury.example";
export const MALLORY = "mallory@treasury.example";
/**
 * Initiated by bob, whose platform user the example policy declares: the initiator is recognised,
 * so the other members' approvals need the rule's quorum, no more. (An initiator no member is
 * recognised as, such as a service account, could be alice or carol, who have no declared user:
 * then an approval of theirs counts only beside one more.)
 */
export const INITIATED_BY_BOB = { request: { initiator: "users/2d2e40r3" } };

export type Service = Awaited<ReturnType<typeof startTestService>>;

export interface ReviewWorld {
  tdb: TestDatabase;
  service: Service;
  issuer: TestIssuer;
  reviewers: ReviewerTokens;
  cosigner: CosignerSimulator;
  clock: { now: number };
  stop(): Promise<void>;
}

/** `policiesDir`: a bundle directory of the test's own (default: the example policy). */
export async function startReviewWorld(env: Record<string, string> = {}, options: { policiesDir?: string } = {}): Promise<ReviewWorld> {
  const tdb = await createTestDatabase();
  const issuer = await startTestIssuer(AUDIENCE);
  const reviewers = writeReviewerTokens([ALICE, BOB, MALLORY]);
  const clock = { now: Date.parse("2026-11-22T09:00:00Z") };
  const service = await startTestService({
    databaseUrl: tdb.url,
    clock: () => new Date(clock.now),
    ...(options.policiesDir ? { policiesDir: options.policiesDir } : {}),
    env: {
      COUNTERSIGN_WEBHOOK_TOKEN: WEBHOOK_TOKEN,
      COUNTERSIGN_ADMIN_TOKEN: ADMIN_TOKEN,
      COUNTERSIGN_REVIEWER_TOKENS_FILE: reviewers.file,
      COUNTERSIGN_OIDC_ISSUER: issuer.issuer,
      COUNTERSIGN_OIDC_AUDIENCE: AUDIENCE,
      ...env,
    },
  });
  const cosigner = new CosignerSimulator({ webhookUrl: `${service.url}/v1/cosigner/webhook`, token: WEBHOOK_TOKEN });
  return {
    tdb,
    service,
    issuer,
    reviewers,
    cosigner,
    clock,
    stop: async () => {
      await service.stop();
      await issuer.stop();
      await tdb.drop();
    },
  };
}

/** `vaults/v/transactions/t` → the review resource's path. */
export const reviewPath = (name: string) => `/v1/${name}/review`;

export interface ApiAnswer {
  status: number;
  body: Record<string, unknown>;
}

export async function api(service: Service, method: "GET" | "POST", path: string, token: string | undefined, body?: unknown): Promise<ApiAnswer> {
  const response = await fetch(`${service.url}${path}`, {
    method,
    headers: { ...(token === undefined ? {} : { authorization: `Bearer ${token}` }), ...(body === undefined ? {} : { "content-type": "application/json" }) },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
}

export const approve = (w: ReviewWorld, name: string, token: string, comment?: string) =>
  api(w.service, "POST", `${reviewPath(name)}:approve`, token, comment === undefined ? {} : { comment });
export const reject = (w: ReviewWorld, name: string, token: string, comment?: string) =>
  api(w.service, "POST", `${reviewPath(name)}:reject`, token, comment === undefined ? {} : { comment });
