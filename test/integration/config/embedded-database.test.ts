/**
 * The embedded database outside a checkout: NODE_ENV=production (the image sets it) without
 * DATABASE_URL is refused unless COUNTERSIGN_ALLOW_EMBEDDED_DATABASE says so, while a checkout's
 * `npm start` (no NODE_ENV) keeps the embedded database. The compiled runtime refusing to serve is
 * in test/integration/deploy/production-install.test.ts.
 */
import { describe, expect, it } from "vitest";
import { ConfigError, loadConfig } from "../../../src/config.js";

function problemsOf(env: Record<string, string>): string[] {
  try {
    loadConfig(env);
  } catch (error) {
    if (error instanceof ConfigError) return error.problems;
    throw error;
  }
  return [];
}

describe("the embedded database in production", () => {
  it("is refused under NODE_ENV=production without DATABASE_URL, naming the way to allow it", () => {
    expect(problemsOf({ NODE_ENV: "production" })).toEqual([expect.stringMatching(/^DATABASE_URL: required when NODE_ENV=production.*COUNTERSIGN_ALLOW_EMBEDDED_DATABASE=true/)]);
    expect(problemsOf({ NODE_ENV: "production", COUNTERSIGN_ALLOW_EMBEDDED_DATABASE: "false" })).toHaveLength(1);
    // Nowhere else: asked for by name, in a checkout (npm start: no NODE_ENV), or with a URL.
    for (const allowed of ["true", "1"]) expect(problemsOf({ NODE_ENV: "production", COUNTERSIGN_ALLOW_EMBEDDED_DATABASE: allowed })).toEqual([]);
    expect(problemsOf({})).toEqual([]);
    expect(problemsOf({ NODE_ENV: "development" })).toEqual([]);
    expect(problemsOf({ NODE_ENV: "production", DATABASE_URL: "postgres://countersign:pw@db:5432/countersign" })).toEqual([]);
  });

  it("refuses a COUNTERSIGN_ALLOW_EMBEDDED_DATABASE that is not a boolean", () => {
    expect(problemsOf({ COUNTERSIGN_ALLOW_EMBEDDED_DATABASE: "yes" })).toEqual([expect.stringMatching(/^COUNTERSIGN_ALLOW_EMBEDDED_DATABASE:/)]);
  });
});
