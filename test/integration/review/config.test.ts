/** Reviewer configuration: one message per problem, tokens stored as SHA-256 only. */
import { createHash } from "node:crypto";
import { describe, expect, it } from "vitest";
import { ConfigError, loadConfig } from "../../../src/config.js";
import { writeReviewerTokens } from "../../support/reviewers.js";
import { writeFileSync } from "node:fs";

const problemsOf = (env: Record<string, string>): string[] => {
  try {
    loadConfig(env);
    return [];
  } catch (error) {
    if (error instanceof ConfigError) return error.problems;
    throw error;
  }
};

describe("reviewer configuration", () => {
  it("reads the OIDC provider (identity claim email by default), the tokens file and the webhook", () => {
    const { file, tokens } = writeReviewerTokens(["Alice@Example.com"]);
    const config = loadConfig({
      COUNTERSIGN_OIDC_ISSUER: "https://id.example.com",
      COUNTERSIGN_OIDC_AUDIENCE: "countersign",
      COUNTERSIGN_REVIEWER_TOKENS_FILE: file,
      COUNTERSIGN_REVIEW_WEBHOOK_URL: "https://hooks.example.com/T1/B2",
    });
    expect(config.review.oidc).toEqual({ issuer: "https://id.example.com", audience: "countersign", identityClaim: "email" });
    expect(config.review.tokens).toEqual([{ identity: "alice@example.com", sha256: createHash("sha256").update(tokens["Alice@Example.com"]!).digest() }]);
    expect(config.review.webhookUrl).toBe("https://hooks.example.com/T1/B2");
  });

  it("is off by default", () => {
    expect(loadConfig({}).review).toEqual({ oidc: undefined, tokens: [], webhookUrl: undefined });
  });

  it("reports each problem", () => {
    const { file } = writeReviewerTokens(["a@x.io"]);
    writeFileSync(file, "a@x.io 1234\nb@x.io\n", { flag: "a" });
    const problems = problemsOf({
      COUNTERSIGN_OIDC_ISSUER: "https://id.example.com",
      COUNTERSIGN_REVIEWER_TOKENS_FILE: file,
      COUNTERSIGN_REVIEW_WEBHOOK_URL: "ftp://hooks.example.com",
    });
    expect(problems).toEqual([
      "COUNTERSIGN_OIDC_AUDIENCE: required when COUNTERSIGN_OIDC_ISSUER is set",
      `COUNTERSIGN_REVIEWER_TOKENS_FILE: ${file} line 3 is not "<identity> <sha256 hex>"`,
      `COUNTERSIGN_REVIEWER_TOKENS_FILE: ${file} line 4 is not "<identity> <sha256 hex>"`,
      "COUNTERSIGN_REVIEW_WEBHOOK_URL: must be an http(s) URL",
    ]);
    expect(problemsOf({ COUNTERSIGN_REVIEW_WEBHOOK_URL: "http://hooks.example.com/T1/B2" })).toEqual([
      "COUNTERSIGN_REVIEW_WEBHOOK_URL: must be an https URL (http only on this machine: 127.0.0.1, localhost, [::1])",
    ]);
    expect(problemsOf({ COUNTERSIGN_REVIEW_WEBHOOK_URL: "http://127.0.0.1:9000/hook" })).toEqual([]);
    expect(problemsOf({ COUNTERSIGN_REVIEWER_TOKENS_FILE: "/nonexistent/reviewers" })).toEqual(["COUNTERSIGN_REVIEWER_TOKENS_FILE: cannot read /nonexistent/reviewers"]);
    // The keys that say who may release a transfer are not fetched in clear text over a network.
    expect(problemsOf({ COUNTERSIGN_OIDC_ISSUER: "http://id.example.com", COUNTERSIGN_OIDC_AUDIENCE: "c" })).toEqual([
      "COUNTERSIGN_OIDC_ISSUER: must be an https URL (http only on this machine: 127.0.0.1, localhost, [::1])",
    ]);
    expect(problemsOf({ COUNTERSIGN_OIDC_ISSUER: "http://127.0.0.1:8443/realms/t", COUNTERSIGN_OIDC_AUDIENCE: "c" })).toEqual([]);
  });
});
