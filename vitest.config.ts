import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: ["test/**/*.test.ts", "src/**/*.test.ts"],
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
