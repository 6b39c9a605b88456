/**
 * A URL the service fetches never carries a user name or password. fetch refuses such a URL with
 * an error that quotes it whole ("Request cannot be constructed from a URL that includes
 * credentials: https://user:PASSWORD@..."), and that message went into the logs, the address-book
 * sync status row and `GET /v1/policy`: the password reached everyone who reads those, while the
 * feature it was meant for never worked.
 */
import { describe, expect, it, vi } from "vitest";
import { ConfigError, loadConfig } from "../../../src/config.js";
import { createLogger } from "../../../src/log.js";
import { ReviewNotifier } from "../../../src/review/notify.js";
import type { StoredReview } from "../../../src/review/store.js";

const PASSWORD = "hunter2-Very-Secret-9f8e7d";

function problemsOf(env: Record<string, string>): string[] {
  try {
    loadConfig(env);
  } catch (error) {
    if (error instanceof ConfigError) return error.problems;
    throw error;
  }
  return [];
}

describe("URLs with a user name or password are refused at start, without printing them", () => {
  const cases: [string, Record<string, string>][] = [
    [
      "COUNTERSIGN_API_URL",
      {
        COUNTERSIGN_API_URL: `https://svc:${PASSWORD}@api.custody.example`,
        COUNTERSIGN_SERVICE_ACCOUNT_EMAIL: "countersign@example.com",
        COUNTERSIGN_SERVICE_ACCOUNT_KEY_FILE: "/nonexistent/key.pem",
        COUNTERSIGN_VAULTS: "v1",
      },
    ],
    ["COUNTERSIGN_REVIEW_WEBHOOK_URL", { COUNTERSIGN_REVIEW_WEBHOOK_URL: `https://hook:${PASSWORD}@hooks.example.com/T1/B2` }],
    ["COUNTERSIGN_OIDC_ISSUER", { COUNTERSIGN_OIDC_ISSUER: `https://id:${PASSWORD}@id.example.com`, COUNTERSIGN_OIDC_AUDIENCE: "countersign" }],
  ];
  it.each(cases)("%s", (variable, env) => {
    const problems = problemsOf(env);
    expect(problems.filter((p) => p.startsWith(`${variable}:`))).toEqual([
      `${variable}: must not contain a user name or password (fetch refuses such a URL, and its error would print it)`,
    ]);
    expect(problems.join("\n")).not.toContain(PASSWORD);
  });

  it("a user name alone is refused too", () => {
    expect(problemsOf({ COUNTERSIGN_REVIEW_WEBHOOK_URL: "https://hook@hooks.example.com/T1" })).toHaveLength(1);
  });
});

describe("a failed review notification never logs the hook URL", () => {
  const review: StoredReview = {
    id: "r1",
    transactionName: "vaults/v1/transactions/t1",
    vault: "vaults/v1",
    contentDigest: "d",
    openedAt: new Date("2026-11-22T09:00:00Z"),
    expiresAt: new Date("2026-11-23T09:00:00Z"),
    openedBy: "00000000-0000-0000-0000-000000000000",
    initiator: null,
    requirements: [{ rule: "r", group: "g", quorum: 1, expiresAfter: "24h" }],
    explanation: {},
  };

  it("at any level, whatever fetch puts in its error", async () => {
    const lines: string[] = [];
    const logger = createLogger({ level: "debug", write: (line) => lines.push(line) });
    // The URL the notifier was given (a hook URL is itself a credential) in a form fetch refuses.
    const url = `https://hook:${PASSWORD}@127.0.0.1:1/services/T1/B2/${PASSWORD}`;
    const notifier = new ReviewNotifier({ url, logger, attempts: 2, baseDelayMs: 1 });
    notifier.opened(review, { reviewers: { g: [{ identity: "a@x.io", user: null }] } });
    await vi.waitFor(() => expect(lines.some((l) => l.includes("review notification failed"))).toBe(true), { timeout: 30_000 });
    await notifier.stop();
    expect(lines.join("\n")).not.toContain(PASSWORD);
  });
});

describe("a database URL that is not one is refused, without printing it", () => {
  // pg reads a libpq key=value string as a path under a host named "base": the whole string, the
  // password in it, became the database name sent in the startup message to whatever "base"
  // resolves to, and echoed by a server's `database "..." does not exist`.
  const KEYWORDS = `host=db.internal port=5432 user=countersign password=${PASSWORD} dbname=countersign`;

  it.each(["DATABASE_URL", "COUNTERSIGN_MIGRATE_DATABASE_URL"])("%s as key=value pairs", (variable) => {
    const problems = problemsOf({ [variable]: KEYWORDS });
    expect(problems).toEqual([`${variable}: must be a postgres:// URL (postgres://user:password@host:5432/database); key=value connection strings are not read`]);
    expect(problems.join("\n")).not.toContain(PASSWORD);
  });

  it.each(["postgres://countersign:p%40ss@db.internal:5432/countersign", "postgresql://db.internal/countersign?sslmode=verify-full", "socket:/var/run/postgresql?db=countersign"])(
    "accepts %s",
    (url) => {
      expect(problemsOf({ DATABASE_URL: url })).toEqual([]);
    },
  );
});
