/** Reviewer tokens for tests: a COUNTERSIGN_REVIEWER_TOKENS_FILE and the plain tokens it lists. */
import { createHash, randomBytes } from "node:crypto";
import { writeFileSync } from "node:fs";
import path from "node:path";
import { scratchDir } from "./scratch.js";

export interface ReviewerTokens {
  file: string;
  /** identity → plain token */
  tokens: Record<string, string>;
}

export function writeReviewerTokens(identities: readonly string[]): ReviewerTokens {
  const tokens: Record<string, string> = {};
  const lines = ["# identity sha256-of-token"];
  for (const identity of identities) {
    const token = randomBytes(24).toString("base64url");
    tokens[identity] = token;
    lines.push(`${identity} ${createHash("sha256").update(token).digest("hex")}`);
  }
  const file = path.join(scratchDir("reviewers"), "reviewers");
  writeFileSync(file, lines.join("\n") + "\n");
  return { file, tokens };
}
