import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    // Unit tests beside the code in src/; test/integration/<area>/ with real Postgres or HTTP of one
    // area; test/e2e/ for full-service flows through the co-signer simulator (docs/development.md).
    include: ["src/**/*.test.ts", "test/integration/**/*.test.ts", "test/e2e/**/*.test.ts"],
    // One Postgres cluster is shared by every database suite (see test/support/global-setup.ts).
    globalSetup: ["test/support/global-setup.ts"],
    // Limits that only end a hang: no test asserts on time. On two cores shared with other work
    // (load average 18) a test that takes 6 s idle took over 60 s (eight CLI starts through tsx),
    // so the limits leave room for a loaded machine rather than measure an idle one.
    testTimeout: 300_000,
    hookTimeout: 600_000,
    pool: "forks",
  },
});
